import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Glove, SUBAGENT_DISPATCH_TOOL_NAME, type StoreAdapter } from "glove-core";
import { OpenAICompatAdapter } from "glove-core/models/openai-compat";
import { ScriptedModel } from "glove-core/testing";
import { sqliteStorage, type ServerStorage, type TraceSpan } from "glove-server";
import {
  openAiAnswer,
  openAiBusy as busy,
  openAiRateLimited as limited,
} from "../../glove-core/test/models/fake-openai-answers.js";
import { startFakeServer, type FakeServer, type Handler } from "../../glove-core/test/models/fake-server.js";
import { startServer, type TestServer } from "./support/harness.js";

let provider: FakeServer | undefined;
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  await provider?.close();
  server = provider = undefined;
});

const answer = openAiAnswer();

/** A real OpenAI-compatible adapter talking to the fake provider on 127.0.0.1. */
const model = (url: string) =>
  new OpenAICompatAdapter({ model: "m", baseURL: `${url}/v1`, apiKey: "sk-test", retryBaseDelayMs: 1, maxRetries: 2 });

/** A server on SQLite whose agent's model (or its `helper` subagent's, with `viaHelper`) answers through `handlers`. */
async function serve(handlers: Handler[], viaHelper = false): Promise<{ s: TestServer; storage: ServerStorage }> {
  provider = await startFakeServer(...handlers);
  const url = provider.url;
  const storage = sqliteStorage({ path: join(mkdtempSync(join(tmpdir(), "glove-retries-")), "glove.db") });
  const agent = ({ store }: { store: StoreAdapter }) => {
    if (!viaHelper) return new Glove({ store, model: model(url), systemPrompt: "main" });
    const main = new ScriptedModel([
      {
        toolCalls: [
          { name: SUBAGENT_DISPATCH_TOOL_NAME, input: { name: "helper", prompt: "Find it." }, id: "call-helper" },
        ],
      },
      { text: "Found." },
    ]);
    return new Glove({ store, model: main, systemPrompt: "main" }).defineSubAgent({
      name: "helper",
      factory: async ({ parentStore, displayManager }) =>
        new Glove({ model: model(url), displayManager, systemPrompt: "helper" }).build(
          await parentStore.createSubAgentStore!("helper"),
        ),
    });
  };
  server = await startServer({ store: storage, agents: { assistant: agent } });
  return { s: server, storage };
}

/** Sends a message, waits for its turn to end; answers the turn id and the events the tab saw. */
async function turn(s: TestServer, id: string) {
  const tab = s.events(id);
  await tab.waitForEvent("snapshot");
  const sent = await s.api(`/conversations/${id}/messages`, { body: { text: "hi" } });
  const end = await tab.waitForEvent("turn_end", (d) => (d as { turnId: string }).turnId === sent.body.turnId);
  const retries = tab.events.filter((e) => e.event === "model_retry").map((e) => e.data);
  await tab.close();
  return { turnId: sent.body.turnId as string, end, retries };
}

const modelCalls = (spans: TraceSpan[]) => spans.filter((span) => span.kind === "model_call");

describe("model-call retries in stored turn traces", () => {
  it("a call answered after a 429 and a 503 is one model_call span with glove.retries 2 and the last cause; clients see the retries", async () => {
    const { s, storage } = await serve([limited, busy, answer]);
    const id = await s.conversation();
    const { turnId, retries } = await turn(s, id);
    expect(retries).toEqual([
      expect.objectContaining({ attempt: 1, status: 429, code: "rate_limit_exceeded", delay_ms: 0 }),
      expect.objectContaining({ attempt: 2, status: 503, code: "server_error" }),
    ]);
    const trace = (await storage.inspect!.traces.get(id, turnId))!;
    expect(trace.status).toBe("completed");
    const [chat, ...others] = modelCalls(trace.spans);
    expect(others).toEqual([]);
    expect(chat).toMatchObject({
      status: "ok",
      attributes: expect.objectContaining({
        "glove.retries": 2,
        "glove.retry.reason": "server_error: Service unavailable",
      }),
    });
    expect(chat!.attributes).not.toHaveProperty("error.type");
  });

  it("a call that fails every attempt: its span ends in error with error.type and its retries, the turn too", async () => {
    const { s, storage } = await serve([busy]);
    const id = await s.conversation();
    const { turnId, end } = await turn(s, id);
    expect(end.data).toMatchObject({ status: "error", error: { code: "GLOVE_PROVIDER" } });
    const trace = (await storage.inspect!.traces.get(id, turnId))!;
    expect(trace).toMatchObject({ status: "error", error: { code: "GLOVE_PROVIDER" } });
    expect(modelCalls(trace.spans)).toEqual([
      expect.objectContaining({
        status: "error",
        attributes: expect.objectContaining({ "glove.retries": 2, "error.type": "GLOVE_PROVIDER" }),
      }),
    ]);
    expect(provider!.received).toHaveLength(3);
  });

  it("a subagent's retried call is counted on its own span, under the subagent run", async () => {
    const { s, storage } = await serve([busy, answer], true);
    const id = await s.conversation();
    const { turnId, retries } = await turn(s, id);
    expect(retries).toEqual([expect.objectContaining({ attempt: 1, status: 503, agentPath: ["helper"] })]);
    const trace = (await storage.inspect!.traces.get(id, turnId))!;
    const run = trace.spans.find((span) => span.kind === "subagent")!;
    const inner = modelCalls(trace.spans).filter((span) => span.parentSpanId === run.spanId);
    expect(inner).toEqual([
      expect.objectContaining({
        status: "ok",
        attributes: expect.objectContaining({ "glove.retries": 1, "glove.agent_path": "helper" }),
      }),
    ]);
    expect(
      modelCalls(trace.spans)
        .filter((span) => span.parentSpanId !== run.spanId)
        .map((span) => span.attributes["glove.retries"]),
    ).toEqual([undefined, undefined]);
  });
});
