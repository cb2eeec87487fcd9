import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createAdapter, Displaymanager, Glove, Runtime, type GlovePlugin, type SubscriberEvent } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { createGloveServer, memoryStorage, type GloveServer, type Listening } from "glove-server";
import { startFakeServer, type FakeServer } from "../../glove-core/test/models/fake-server.js";
import { authenticate } from "./support/harness.js";
import { SseClient } from "./support/sse-client.js";
import { PROMPT_WAIT_MS } from "../../../test-support/timeouts.js";

let server: GloveServer | undefined;
let fake: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  await fake?.close();
  server = undefined;
  fake = undefined;
});

async function call(listening: Listening, path: string, body?: unknown) {
  const response = await fetch(listening.url + path, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: "Bearer alice", "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies of many shapes
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe("abort reaches the model's HTTP request", () => {
  it("aborting a turn closes the upstream provider connection", async () => {
    // An OpenAI-compatible provider that starts streaming and then goes quiet.
    fake = await startFakeServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(
        `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: "Thinking" } }] })}\n\n`,
      );
    });
    const upstream = fake;
    server = createGloveServer({
      authenticate,
      store: memoryStorage(),
      agents: {
        assistant: ({ store }) =>
          new Glove({
            store,
            model: createAdapter({
              provider: "openai",
              apiKey: "test-key",
              baseURL: `${upstream.url}/v1`,
              model: "gpt-test",
            }),
            displayManager: new Displaymanager(),
            systemPrompt: "test",
            compaction_config: { compaction_instructions: "Summarize." },
          }),
      },
    });
    const listening = await server.listen();
    const id = (await call(listening, "/conversations", {})).body.id as string;
    const tab = new SseClient(`${listening.url}/conversations/${id}/events`, { authorization: "Bearer alice" });
    await tab.waitForEvent("snapshot");
    await call(listening, `/conversations/${id}/messages`, { text: "think hard" });
    await tab.waitForEvent("text_delta");
    expect(upstream.clientAborts).toBe(0);
    const aborted = await call(listening, `/conversations/${id}/abort`, {});
    expect(aborted.body).toMatchObject({ aborted: true, status: "aborted" });
    for (const end = Date.now() + PROMPT_WAIT_MS; Date.now() < end && upstream.clientAborts === 0;)
      await new Promise((r) => setTimeout(r, 20));
    expect(upstream.clientAborts).toBe(1);
    await tab.waitForEvent("turn_end", (d) => d.status === "aborted");
    await tab.close();
  });
});

describe("slot answers with a transforming resolve schema", () => {
  it("the tool receives the schema's output once (the raw answer is parsed by the display manager, not twice)", async () => {
    const received: unknown[] = [];
    server = createGloveServer({
      authenticate,
      store: memoryStorage(),
      agents: {
        assistant: ({ store }) =>
          new Glove({
            store,
            model: new ScriptedModel([{ toolCalls: [{ name: "name_length", input: {}, id: "n1" }] }, { text: "ok" }]),
            displayManager: new Displaymanager(),
            systemPrompt: "",
            compaction_config: { compaction_instructions: "" },
          }).fold({
            name: "name_length",
            description: "asks a name, keeps its length",
            resolveSchema: z.string().transform((name) => name.length),
            do: async (_input, display) => {
              received.push(await display.pushAndWait({ input: "Your name?" }));
              return "done";
            },
          }),
      },
    });
    const listening = await server.listen();
    const id = (await call(listening, "/conversations", {})).body.id as string;
    const tab = new SseClient(`${listening.url}/conversations/${id}/events`, { authorization: "Bearer alice" });
    await tab.waitForEvent("snapshot");
    await call(listening, `/conversations/${id}/messages`, { text: "go" });
    const push = await tab.waitForEvent("slot_push");
    const slotId = (push.data as { slot: { id: string } }).slot.id;
    expect((await call(listening, `/conversations/${id}/slots/${slotId}`, { resolve: "Ada" })).status).toBe(200);
    await tab.waitForEvent("turn_end");
    expect(received).toEqual([3]);
    await tab.close();
  });
});

describe("a glove-core Runtime as the server's agents", () => {
  it("serves every registered agent with plugins, scopes and preprocess unchanged", async () => {
    const seen: Array<{ agent: string; type: string }> = [];
    const plugin: GlovePlugin = {
      name: "shout",
      tools: () => [
        {
          name: "shout",
          description: "Shouts.",
          input_schema: z.object({ text: z.string() }),
          run: async (i: { text: string }) => i.text.toUpperCase(),
        } as never,
      ],
      preprocess: (_agent, text) => text.replace("please", "kindly"),
      onEvent: (agent, _conversation, event: SubscriberEvent) => void seen.push({ agent, type: event.type }),
    };
    const runtime = new Runtime({ plugins: [plugin], environment: false });
    const writerModel = new ScriptedModel([
      { toolCalls: [{ name: "shout", input: { text: "hi" }, id: "s1" }] },
      { text: "done" },
    ]);
    runtime.register("writer", { systemPrompt: "You write.", model: writerModel });
    runtime.register("reader", {
      systemPrompt: "You read.",
      model: new ScriptedModel([], { fallback: { text: "read" } }),
      tools: [],
    });
    server = createGloveServer({ agents: runtime, authenticate, store: memoryStorage(), idleTimeoutMs: 50 });
    const listening = await server.listen();
    const bad = await call(listening, "/conversations", { agent: "nobody" });
    expect(bad.body.error.message).toMatch(/writer, reader/);
    const id = (await call(listening, "/conversations", { agent: "writer" })).body.id as string;
    const tab = new SseClient(`${listening.url}/conversations/${id}/events`, { authorization: "Bearer alice" });
    await tab.waitForEvent("snapshot");
    await call(listening, `/conversations/${id}/messages`, { text: "please shout" });
    const result = await tab.waitForEvent("tool_use_result");
    expect((result.data as { result: { data: unknown } }).result.data).toBe("HI");
    await tab.waitForEvent("turn_end");
    expect(writerModel.requests[0]!.messages[0]!.text).toBe("kindly shout");
    expect(writerModel.requests[0]!.tools?.map((t) => t.name)).toContain("shout");
    expect(seen.some((e) => e.agent === "writer" && e.type === "tool_use_result")).toBe(true);
    await tab.close();
    // Idle eviction releases the Runtime's Glove too.
    for (const end = Date.now() + PROMPT_WAIT_MS; Date.now() < end && runtime.openConversations > 0;)
      await new Promise((r) => setTimeout(r, 20));
    expect(runtime.openConversations).toBe(0);
    expect(server.liveConversations).toBe(0);
  });
});
