import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ProviderError, type Message } from "glove-core";
import { makeGlove } from "../support/make-glove.js";

async function toolResults(store: { getMessages(): Promise<Message[]> }) {
  return (await store.getMessages()).flatMap((m) => m.tool_results ?? []);
}

describe("bad input never crashes the loop", () => {
  it("unknown tool → error result naming the available tools; the loop continues", async () => {
    const { glove, store, model } = makeGlove([
      { toolCalls: [{ name: "get_wether", input: {} }] },
      { text: "Sorry, let me fix that." },
    ]);
    glove.fold({ name: "get_weather", description: "weather", do: async () => "sunny" });
    await glove.processRequest("weather?");
    const [r] = await toolResults(store);
    expect(r!.result.status).toBe("error");
    expect(r!.result.message).toMatch(/Unknown tool "get_wether"/);
    expect(r!.result.message).toContain("get_weather");
    expect(model.requests).toHaveLength(2);
  });

  it("invalid input → error result with path and message of each issue; the tool does not run", async () => {
    let ran = false;
    const { glove, store } = makeGlove([
      { toolCalls: [{ name: "book", input: { city: 42, nights: -1 } }] },
      { text: "fixed" },
    ]);
    glove.fold({
      name: "book",
      description: "book",
      inputSchema: z.object({ city: z.string(), nights: z.number().int().positive() }),
      async do() {
        ran = true;
        return "booked";
      },
    });
    await glove.processRequest("book");
    const [r] = await toolResults(store);
    expect(ran).toBe(false);
    expect(r!.result.status).toBe("error");
    expect(r!.result.message).toMatch(/city: /);
    expect(r!.result.message).toMatch(/nights: /);
    const issues = (r!.result.data as { issues: Array<{ path: string }> }).issues;
    expect(issues.map((i) => i.path).sort()).toEqual(["city", "nights"]);
  });

  it("malformed tool-call JSON from a model → error result, not a crash", async () => {
    const { glove, store } = makeGlove([
      { toolCalls: [{ name: "echo", input: '{"text": "unterminated' }] },
      { toolCalls: [{ name: "echo", input: '{"text":"ok"}' }] },
      { text: "done" },
    ]);
    glove.fold({
      name: "echo",
      description: "echo",
      inputSchema: z.object({ text: z.string() }),
      do: async ({ text }) => text,
    });
    await glove.processRequest("go");
    const [bad, good] = await toolResults(store);
    expect(bad!.result.status).toBe("error");
    expect(bad!.result.message).toMatch(/not valid JSON/);
    // A JSON string that parses is accepted: some models double-encode arguments.
    expect(good!.result).toEqual({ status: "success", data: "ok" });
  });

  it("a tool returning a plain value is wrapped as success data", async () => {
    const { glove, store } = makeGlove([
      {
        toolCalls: [
          { name: "n", input: {} },
          { name: "o", input: {} },
        ],
      },
      { text: "" },
    ]);
    glove
      .fold({ name: "n", description: "n", do: async () => 7 })
      .fold({ name: "o", description: "o", do: async () => ({ rows: 2 }) });
    await glove.processRequest("go");
    const results = await toolResults(store);
    expect(results.map((r) => r.result)).toEqual([
      { status: "success", data: 7 },
      { status: "success", data: { rows: 2 } },
    ]);
  });

  it("a model adapter returning garbage fails with a clear error and persists nothing half-done", async () => {
    const { glove, store } = makeGlove([], {
      model: {
        name: "broken",
        setSystemPrompt() {},
        prompt: async () => ({}) as never,
      },
    });
    await expect(glove.processRequest("hi")).rejects.toThrow(/returned no messages array/);
    expect((await store.getMessages()).map((m) => m.sender)).toEqual(["user"]);
  });
});

describe("malformed tool calls from an adapter", () => {
  function sloppy(secondCall: Record<string, unknown>) {
    let n = 0;
    return {
      name: "sloppy",
      setSystemPrompt() {},
      prompt: async () => {
        n++;
        if (n > 1) return { messages: [{ sender: "agent" as const, text: "done" }], tokens_in: 1, tokens_out: 1 };
        const tool_calls = [{ tool_name: "echo", input_args: { text: "x" } }, secondCall as never];
        return { messages: [{ sender: "agent" as const, text: "", tool_calls }], tokens_in: 1, tokens_out: 1 };
      },
    };
  }

  it("calls without ids get ids, history stays paired", async () => {
    const { glove, store } = makeGlove([], { model: sloppy({ tool_name: "echo", input_args: { text: "y" }, id: "" }) });
    glove.fold({ name: "echo", description: "e", do: async () => "ok" });
    await glove.processRequest("go");
    const messages = await store.getMessages();
    const calls = messages[1]!.tool_calls!;
    expect(calls.every((c) => typeof c.id === "string" && c.id.length > 0)).toBe(true);
    const results = messages[2]!.tool_results!;
    expect(results.map((r) => r.call_id)).toEqual(calls.map((c) => c.id));
    expect(results.map((r) => r.result.status)).toEqual(["success", "success"]);
  });

  it("a nameless call fails the answer with a ProviderError, and nothing of it is stored", async () => {
    const { glove, store } = makeGlove([], { model: sloppy({ input_args: {} }) });
    glove.fold({ name: "echo", description: "e", do: async () => "ok" });
    const error = await glove.processRequest("go").catch((e: unknown) => e);
    expect(ProviderError.isInstance(error) && error.providerCode).toBe("malformed_tool_call");
    expect((error as Error).message).toContain("messages[0].tool_calls[1].tool_name is absent");
    expect((await store.getMessages()).map((m) => m.sender)).toEqual(["user"]);
  });
});
