import { expect, it } from "vitest";
import { Glove, SUBAGENT_DISPATCH_TOOL_NAME, type StoreAdapter } from "glove-core";
import { ScriptedModel, type ScriptedTurn } from "glove-core/testing";
import type { ServerStorage, TraceSpan, TurnTrace } from "glove-server";
import type { startServer, TestServer } from "../support/harness.js";
import { PROMPT_WAIT_MS } from "../../../../test-support/timeouts.js";

type Start = (options?: Parameters<typeof startServer>[0]) => Promise<TestServer>;

/** kind, name and status of each span, in start order. */
const shape = (trace: TurnTrace | undefined) => trace?.spans.map((s) => [s.kind, s.name, s.status]);

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  for (const deadline = Date.now() + PROMPT_WAIT_MS; ;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Sends `text` and waits for that turn's turn_end; answers the turn id. */
async function turn(s: TestServer, id: string, text: string): Promise<string> {
  const tab = s.events(id);
  await tab.waitForEvent("snapshot");
  const sent = await s.api(`/conversations/${id}/messages`, { body: { text } });
  expect(sent.status).toBe(202);
  await tab.waitForEvent("turn_end", (data) => (data as { turnId: string }).turnId === sent.body.turnId);
  await tab.close();
  return sent.body.turnId as string;
}

/** An agent whose model hands work to a `helper` subagent (scripts shared across rebuilds, as in scale mode). */
function delegatingAgent(main: ScriptedTurn[], helper: ScriptedTurn[]) {
  const next = (steps: ScriptedTurn[]) => (): ScriptedTurn => steps.shift() ?? { text: "(no more script)" };
  return ({ store }: { store: StoreAdapter }) =>
    new Glove({ store, model: new ScriptedModel([], { fallback: next(main) }), systemPrompt: "main" }).defineSubAgent({
      name: "helper",
      factory: async ({ parentStore, displayManager }) =>
        new Glove({
          model: new ScriptedModel([], { fallback: next(helper) }),
          displayManager,
          systemPrompt: "helper",
        }).build(await parentStore.createSubAgentStore!("helper")),
    });
}

/**
 * Turn traces recorded by the server as turns run, read through storage.inspect: on every storage,
 * and in scale mode (the instance running the turn records it).
 */
export function traceCases(start: Start, makeStorage: () => ServerStorage | Promise<ServerStorage>): void {
  it("traces a turn's model calls and tool calls: names, tokens, finish reasons, call ids, statuses, durations", async () => {
    const storage = await makeStorage();
    const s = await start({
      store: storage,
      kit: {
        script: [
          {
            toolCalls: [{ name: "show_card", input: { title: "Menu" }, id: "call-menu" }],
            tokens_in: 10,
            tokens_out: 3,
          },
          { text: "Here is the menu.", tokens_in: 12, tokens_out: 4 },
        ],
      },
    });
    const id = await s.conversation();
    const turnId = await turn(s, id, "The menu?");
    const trace = (await storage.inspect!.traces.get(id, turnId))!;
    expect(trace).toMatchObject({ conversationId: id, turnId, status: "completed", truncated: false });
    expect(Date.parse(trace.endedAt!)).toBeGreaterThanOrEqual(Date.parse(trace.startedAt));
    expect(shape(trace)).toEqual([
      ["model_call", "chat scripted", "ok"],
      ["tool_call", "execute_tool show_card", "ok"],
      ["model_call", "chat scripted", "ok"],
    ]);
    const [first, tool, second] = trace.spans as [TraceSpan, TraceSpan, TraceSpan];
    expect(first.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "scripted",
      "gen_ai.usage.input_tokens": 10,
      "gen_ai.usage.output_tokens": 3,
    });
    expect(second.attributes).toMatchObject({ "gen_ai.usage.input_tokens": 12, "gen_ai.usage.output_tokens": 4 });
    expect(tool.attributes).toMatchObject({
      "gen_ai.tool.name": "show_card",
      "gen_ai.tool.call.id": "call-menu",
      "glove.tool.status": "success",
    });
    for (const span of trace.spans) {
      expect(span.parentSpanId).toBeNull();
      expect(span.durationMs).toBeGreaterThanOrEqual(0);
    }
    expect(first.startMs).toBeLessThanOrEqual(tool.startMs);
    expect(tool.startMs).toBeLessThanOrEqual(second.startMs);
    // The request inspector: each model call's request and answer, linked to its span.
    expect(trace.calls?.map((call) => [call.spanId, call.answer?.finishReason !== undefined])).toEqual([
      [first.spanId, true],
      [second.spanId, true],
    ]);
    expect(trace.calls![1]!.contextMessages).toBeGreaterThan(trace.calls![0]!.contextMessages);
    const listed = await storage.inspect!.listConversations({ limit: 10, owner: "alice" });
    expect(listed.items).toEqual([expect.objectContaining({ id, status: "idle", lastTurnStatus: "done" })]);
    expect(listed.tokens).toEqual({ in: 22, out: 7 });
  });

  it("traces a subagent run nested under its call, and a failed turn as error (the conversation's status too)", async () => {
    const storage = await makeStorage();
    const main: ScriptedTurn[] = [
      {
        toolCalls: [
          { name: SUBAGENT_DISPATCH_TOOL_NAME, input: { name: "helper", prompt: "Find it." }, id: "call-helper" },
        ],
      },
      { text: "The helper found it." },
      { error: new Error("the model is down") },
    ];
    const s = await start({ store: storage, agents: { assistant: delegatingAgent(main, [{ text: "Found it." }]) } });
    const id = await s.conversation();
    const turnId = await turn(s, id, "Delegate, please.");
    const trace = (await storage.inspect!.traces.get(id, turnId))!;
    expect(shape(trace)).toEqual([
      ["model_call", "chat scripted", "ok"],
      ["tool_call", `execute_tool ${SUBAGENT_DISPATCH_TOOL_NAME}`, "ok"],
      ["subagent", "invoke_agent helper", "ok"],
      ["model_call", "chat", "ok"],
      ["model_call", "chat scripted", "ok"],
    ]);
    const [, call, run, inner] = trace.spans as [TraceSpan, TraceSpan, TraceSpan, TraceSpan];
    expect(run.parentSpanId).toBe(call.spanId);
    expect(inner.parentSpanId).toBe(run.spanId);
    expect(inner.attributes["glove.agent_path"]).toBe("helper");
    expect(run.attributes).toMatchObject({ "gen_ai.agent.name": "helper", "glove.subagent.status": "success" });

    const failed = await turn(s, id, "Again?");
    expect(await storage.inspect!.traces.get(id, failed)).toMatchObject({
      status: "error",
      error: { code: "GLOVE_TURN_FAILED" },
    });
    expect((await storage.inspect!.traces.list(id, { limit: 5 })).map((t) => t.turnId)).toEqual([failed, turnId]);
    expect((await storage.inspect!.listConversations({ limit: 5, status: "error" })).items.map((c) => c.id)).toEqual([
      id,
    ]);
  });

  it("an aborted turn's trace ends aborted with its running tool call; a running turn's trace shows it running", async () => {
    const storage = await makeStorage();
    const s = await start({
      store: storage,
      kit: { script: [{ toolCalls: [{ name: "slow_tool", input: {}, id: "slow-1" }] }] },
    });
    const id = await s.conversation();
    const tab = s.events(id);
    await tab.waitForEvent("snapshot");
    const sent = await s.api(`/conversations/${id}/messages`, { body: { text: "go" } });
    await tab.waitForEvent("model_response_complete");
    // Saved while it runs (every few seconds), so a live view sees the call in progress.
    const live = await until(
      () => storage.inspect!.traces.get(id, sent.body.turnId),
      (t) => t?.spans.length === 2,
    );
    expect(live).toMatchObject({ status: "running", endedAt: null });
    expect(shape(live)).toEqual([
      ["model_call", "chat scripted", "ok"],
      ["tool_call", "execute_tool slow_tool", "running"],
    ]);
    expect((await storage.inspect!.listConversations({ limit: 5 })).items[0]).toMatchObject({ id, status: "running" });
    await s.api(`/conversations/${id}/abort`, { body: {} });
    await tab.waitForEvent("turn_end");
    const trace = await storage.inspect!.traces.get(id, sent.body.turnId);
    expect(trace?.status).toBe("aborted");
    expect(trace?.spans[1]).toMatchObject({
      status: "aborted",
      attributes: expect.objectContaining({ "error.type": expect.any(String) }),
    });
    expect((await storage.inspect!.listConversations({ limit: 5 })).items[0]).toMatchObject({
      id,
      status: "idle",
      lastTurnStatus: "aborted",
    });
  });

  it("a turn that waits for a person is traced as waiting (its call still open), the answer's turn as resumed", async () => {
    const storage = await makeStorage();
    const s = await start({
      store: storage,
      idleTimeoutMs: 100,
      kit: {
        script: [
          { toolCalls: [{ name: "ask_age", input: { question: "How old?" }, id: "age-1" }] },
          { text: "Thanks, 42 noted." },
        ],
      },
    });
    const id = await s.conversation();
    const tab = s.events(id);
    await tab.waitForEvent("snapshot");
    const sent = await s.api(`/conversations/${id}/messages`, { body: { text: "Register me" } });
    const slotId = ((await tab.waitForEvent("slot_push")).data as { slot: { id: string } }).slot.id;
    await tab.close();
    // Nobody watches: the turn leaves memory waiting for the answer.
    const waiting = await until(
      () => storage.inspect!.traces.get(id, sent.body.turnId),
      (t) => t?.status === "waiting",
    );
    expect(shape(waiting)).toEqual([
      ["model_call", "chat scripted", "ok"],
      ["tool_call", "execute_tool ask_age", "running"],
    ]);
    const listed = await until(
      () => storage.inspect!.listConversations({ limit: 5, status: "waiting" }),
      (page) => page.total === 1,
    );
    expect(listed.items.map((c) => c.id)).toEqual([id]);

    const watcher = s.events(id);
    await watcher.waitForEvent("snapshot");
    const answered = await s.api(`/conversations/${id}/slots/${slotId}`, { body: { resolve: { age: 42 } } });
    expect(answered.status).toBe(200);
    await watcher.waitForEvent("turn_end", (data) => (data as { turnId: string }).turnId === answered.body.turnId);
    const resumed = await storage.inspect!.traces.get(id, answered.body.turnId);
    expect(resumed?.status).toBe("completed");
    expect(shape(resumed)).toEqual([
      ["tool_call", "execute_tool ask_age", "ok"],
      ["model_call", "chat scripted", "ok"],
    ]);
    expect(resumed?.spans[0]?.attributes).toMatchObject({ "gen_ai.tool.call.id": "age-1", "glove.resumed": true });
    expect((await storage.inspect!.listConversations({ limit: 5 })).items[0]).toMatchObject({ id, status: "idle" });
  });
}
