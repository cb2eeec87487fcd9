import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  Context,
  Displaymanager,
  Glove,
  MemoryStore,
  PromptMachine,
  summarizeOlderToolResults,
  type GloveConfig,
  type GloveFoldArgs,
  type Message,
  type PromptRequest,
  type ToolResult,
} from "glove-core";
import { ScriptedModel } from "glove-core/testing";

const FILE = "line 1\nline 2\nline 3\n".repeat(50);

afterEach(() => {
  vi.restoreAllMocks();
});

function readFileTool(generate: (args: unknown) => Promise<string>): GloveFoldArgs<{ path: string }> {
  return {
    name: "read_file",
    description: "Read a file.",
    inputSchema: z.object({ path: z.string() }),
    async do(input) {
      return {
        status: "success",
        data: FILE,
        generateSummaryArgs: { path: input.path, lineCount: FILE.split("\n").length - 1 },
      };
    },
    generateToolSummary: generate,
  };
}

const summarize = async (args: unknown) => {
  const { path, lineCount } = args as { path: string; lineCount: number };
  return `Read ${path} (${lineCount} lines).`;
};

function build(extra: Partial<GloveConfig>, fold: GloveFoldArgs<{ path: string }>) {
  const store = new MemoryStore("summaries");
  const model = new ScriptedModel([
    { toolCalls: [{ name: "read_file", input: { path: "src/auth.ts" }, id: "read_1" }] },
    { text: "It has 150 lines." },
    { text: "As I said." },
  ]);
  const glove = new Glove({
    store,
    model,
    displayManager: new Displaymanager(),
    systemPrompt: "p",
    compaction_config: { compaction_instructions: "s" },
    ...extra,
  })
    .fold(fold)
    .build();
  return { glove, model, store };
}

function resultsIn(messages: Message[] | undefined): ToolResult[] {
  return (messages ?? []).flatMap((m) => m.tool_results ?? []);
}

function sentResults(request: PromptRequest | undefined): ToolResult[] {
  return resultsIn(request?.messages);
}

describe("tool result summaries", () => {
  it("passes generateSummaryArgs to generateToolSummary and stores the result on result.summary, keeping data", async () => {
    const generate = vi.fn(summarize);
    const { glove, store } = build({}, readFileTool(generate));
    await glove.processRequest("read auth");
    expect(generate).toHaveBeenCalledTimes(1);
    expect(generate).toHaveBeenCalledWith({ path: "src/auth.ts", lineCount: 150 });
    const [stored] = resultsIn(await store.getMessages());
    expect(stored?.result).toMatchObject({ status: "success", data: FILE, summary: "Read src/auth.ts (150 lines)." });
  });

  it("does not call generateToolSummary when the result has no generateSummaryArgs", async () => {
    const generate = vi.fn(summarize);
    const { glove, store } = build(
      {},
      {
        ...readFileTool(generate),
        async do() {
          return { status: "success", data: FILE };
        },
      },
    );
    await glove.processRequest("read auth");
    expect(generate).not.toHaveBeenCalled();
    expect(resultsIn(await store.getMessages())[0]?.result.summary).toBeUndefined();
  });

  it("with enableToolResultSummary the model gets the summary for older results and full data for the current turn", async () => {
    const { glove, model, store } = build({ enableToolResultSummary: true }, readFileTool(summarize));
    await glove.processRequest("read auth");
    // Same request: the result of the tool the model just called keeps its full data.
    expect(sentResults(model.requests[1])[0]?.result.data).toBe(FILE);

    await glove.processRequest("how many lines again?");
    // Next request: the result is older than the latest user message, so its summary is sent instead.
    expect(sentResults(model.requests[2])[0]?.result.data).toBe("Read src/auth.ts (150 lines).");
    expect(sentResults(model.requests[2])[0]?.call_id).toBe("read_1");

    // The store keeps both.
    const [stored] = resultsIn(await store.getMessages());
    expect(stored?.result.data).toBe(FILE);
    expect(stored?.result.summary).toBe("Read src/auth.ts (150 lines).");
  });

  it("is disabled by default: older results keep their full data", async () => {
    const { glove, model } = build({}, readFileTool(summarize));
    await glove.processRequest("read auth");
    await glove.processRequest("how many lines again?");
    expect(sentResults(model.requests[2])[0]?.result.data).toBe(FILE);
    expect(sentResults(model.requests[2])[0]?.result.summary).toBe("Read src/auth.ts (150 lines).");
  });

  it("keeps the result (without a summary) when generateToolSummary throws", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { glove, model, store } = build(
      { enableToolResultSummary: true },
      readFileTool(async () => {
        throw new Error("summariser down");
      }),
    );
    await glove.processRequest("read auth");
    await glove.processRequest("again?");
    const [stored] = resultsIn(await store.getMessages());
    expect(stored?.result.status).toBe("success");
    expect(stored?.result.data).toBe(FILE);
    expect(stored?.result.summary).toBeUndefined();
    expect(sentResults(model.requests[2])[0]?.result.data).toBe(FILE);
    expect(error).toHaveBeenCalled();
  });
});

describe("summarizeOlderToolResults", () => {
  const result = (data: string, summary?: string): ToolResult => ({
    tool_name: "t",
    call_id: data,
    result: { status: "success", data, ...(summary === undefined ? {} : { summary }) },
  });

  function conversation(): Message[] {
    return [
      { sender: "user", text: "first" },
      { sender: "agent", text: "", tool_calls: [{ tool_name: "t", input_args: {}, id: "old" }] },
      { sender: "user", text: "", tool_results: [result("old data", "old summary"), result("no summary")] },
      { sender: "agent", text: "answer" },
      { sender: "user", text: "", tool_results: [result("empty summary", "")] },
      { sender: "user", text: "second" },
      { sender: "agent", text: "", tool_calls: [{ tool_name: "t", input_args: {}, id: "new" }] },
      { sender: "user", text: "", tool_results: [result("new data", "new summary")] },
    ];
  }

  it("swaps data for summary only at or before the latest non-tool user message, returning untouched messages by reference", () => {
    const messages = conversation();
    const before = structuredClone(messages);
    const out = summarizeOlderToolResults(messages);

    expect(out).not.toBe(messages);
    expect(out).toHaveLength(messages.length);
    expect(out[2]?.tool_results?.map((r) => r.result.data)).toEqual(["old summary", "no summary"]);
    // The untouched result inside a rewritten message is kept by reference too.
    expect(out[2]?.tool_results?.[1]).toBe(messages[2]?.tool_results?.[1]);
    for (const i of [0, 1, 3, 4, 5, 6, 7]) expect(out[i], `message ${i}`).toBe(messages[i]);
    // The current turn's result keeps full data.
    expect(out[7]?.tool_results?.[0]?.result.data).toBe("new data");
    // An empty summary never replaces data.
    expect(out[4]?.tool_results?.[0]?.result.data).toBe("empty summary");
    // The input is not mutated.
    expect(messages).toEqual(before);
  });

  it("returns the same array when there is nothing to summarise", () => {
    const noSummaries: Message[] = [
      { sender: "user", text: "q" },
      { sender: "user", text: "", tool_results: [result("data")] },
      { sender: "user", text: "q2" },
    ];
    expect(summarizeOlderToolResults(noSummaries)).toBe(noSummaries);
    const onlyCurrentTurn: Message[] = [
      { sender: "user", text: "q" },
      { sender: "user", text: "", tool_results: [result("data", "summary")] },
    ];
    expect(summarizeOlderToolResults(onlyCurrentTurn)).toBe(onlyCurrentTurn);
    const empty: Message[] = [];
    expect(summarizeOlderToolResults(empty)).toBe(empty);
  });

  it("is exposed on PromptMachine, which applies it in run() only when enabled", async () => {
    const messages = conversation();
    const ctx = new Context(new MemoryStore("pm"));
    const off = new ScriptedModel([{ text: "ok" }]);
    const on = new ScriptedModel([{ text: "ok" }]);
    await new PromptMachine(off, ctx, "p").run(messages);
    await new PromptMachine(on, ctx, "p", { enableToolResultSummary: true }).run(messages);
    expect(sentResults(off.requests[0])[0]?.result.data).toBe("old data");
    expect(sentResults(on.requests[0])[0]?.result.data).toBe("old summary");
    expect(new PromptMachine(on, ctx, "p").summarizeOlderToolResults(messages)[2]?.tool_results?.[0]?.result.data).toBe(
      "old summary",
    );
  });

  it("PromptMachine takes its options as an object; the deprecated positional (enableToolResultSummary, bus) still works", async () => {
    const messages = conversation();
    const ctx = new Context(new MemoryStore("pm-options"));
    const bus = new PromptMachine(new ScriptedModel(), ctx, "p").bus;
    const viaOptions = new PromptMachine(new ScriptedModel([{ text: "ok" }]), ctx, "p", {
      enableToolResultSummary: true,
      bus,
    });
    const positional = new PromptMachine(new ScriptedModel([{ text: "ok" }]), ctx, "p", true, bus);
    const busOnly = new PromptMachine(new ScriptedModel(), ctx, "p", undefined, bus);
    for (const machine of [viaOptions, positional]) {
      expect(machine.enableToolResultSummary).toBe(true);
      expect(machine.bus).toBe(bus);
    }
    expect(busOnly.bus).toBe(bus);
    expect(busOnly.enableToolResultSummary).toBe(false);
    const model = new ScriptedModel([{ text: "ok" }]);
    await new PromptMachine(model, ctx, "p", { enableToolResultSummary: true }).run(messages);
    expect(sentResults(model.requests[0])[0]?.result.data).toBe("old summary");
  });
});
