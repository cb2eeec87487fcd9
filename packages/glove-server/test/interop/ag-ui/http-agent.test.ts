/**
 * The AG-UI route driven by the official `@ag-ui/client` HttpAgent over a real socket: streamed
 * answers, tool calls, state, questions as interrupts answered by resume, and the native routes'
 * rules (authentication, ownership, quotas, one turn at a time). Every event is checked against
 * `@ag-ui/core`'s schemas as it arrives.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import { memoryStorage } from "glove-server";
import type { TestServer } from "../../support/harness.js";
import { eventually } from "../../support/polling.js";
import { expectValidHistory } from "../../suite/server-suite.js";
import { PROMPT_WAIT_MS } from "../../../../../test-support/timeouts.js";
import { agUiAgent, received, runOnce, say, streamedText, typesOf } from "./support/ag-ui-client.js";
import { startAgUiServer } from "./support/ag-ui-server.js";

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start(...args: Parameters<typeof startAgUiServer>): Promise<TestServer> {
  const server = await startAgUiServer(...args);
  servers.push(server);
  return server;
}

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  if (!(await eventually(check, PROMPT_WAIT_MS))) throw new Error("timed out");
}

const askAge = { toolCalls: [{ name: "ask_age", input: { question: "How old are you?" }, id: "age-1" }] };

describe("AG-UI over HttpAgent", () => {
  it("streams an answer as a text message in a run, and the thread is a conversation of the caller's", async () => {
    const s = await start({ script: [{ text: "Hello from a Glove agent." }] });
    const agent = agUiAgent(s);
    const run = await say(agent, "Hi");
    expect(run.error).toBeUndefined();
    expect(typesOf(run)).toEqual([
      "RUN_STARTED",
      "STATE_SNAPSHOT",
      "TEXT_MESSAGE_START",
      ...typesOf(run).filter((t) => t === "TEXT_MESSAGE_CONTENT"),
      "TEXT_MESSAGE_END",
      "RUN_FINISHED",
    ]);
    expect(streamedText(run)).toBe("Hello from a Glove agent.");
    expect(run.outcome).toBe("success");
    expect(run.events[0]).toMatchObject({ threadId: agent.threadId, protocolVersion: "1.0" });
    // The client's own view: the user message and the agent's answer.
    expect(agent.messages.map((m) => [m.role, m.content])).toEqual([
      ["user", "Hi"],
      ["assistant", "Hello from a Glove agent."],
    ]);
    // The thread is the caller's conversation on the native routes too.
    const native = await s.api(`/conversations/${agent.threadId}`);
    expect(native.status).toBe(200);
    expect((native.body.messages as Message[]).map((m) => m.text)).toEqual(["Hi", "Hello from a Glove agent."]);
    expect((await s.api(`/conversations/${agent.threadId}`, { user: "bob" })).status).toBe(404);
  });

  it("streams tool calls with their results, display-only slots as activities, and tasks as state", async () => {
    const s = await start({
      script: [
        { text: "Let me show it.", toolCalls: [{ name: "show_card", input: { title: "Menu" }, id: "card-1" }] },
        {
          toolCalls: [
            {
              name: "glove_update_tasks",
              input: { todos: [{ content: "Book a table", activeForm: "Booking a table", status: "in_progress" }] },
              id: "tasks-1",
            },
          ],
        },
        { text: "Done." },
      ],
    });
    const agent = agUiAgent(s);
    const run = await say(agent, "Show me the menu");
    expect(run.error).toBeUndefined();
    const types = typesOf(run);
    // The text before the call is closed first; the call follows, then its result.
    expect(types.indexOf("TEXT_MESSAGE_END")).toBeLessThan(types.indexOf("TOOL_CALL_START"));
    const start_ = run.events.find((e) => e.type === "TOOL_CALL_START") as unknown as {
      toolCallId: string;
      toolCallName: string;
    };
    expect(start_).toMatchObject({ toolCallId: "card-1", toolCallName: "show_card" });
    expect(run.events.find((e) => e.type === "TOOL_CALL_ARGS")).toMatchObject({
      toolCallId: "card-1",
      delta: JSON.stringify({ title: "Menu" }),
    });
    expect(run.events.find((e) => e.type === "ACTIVITY_SNAPSHOT")).toMatchObject({
      activityType: "show_card",
      content: { renderer: "show_card", input: { title: "Menu" }, toolCallId: "card-1" },
    });
    expect(run.events.filter((e) => e.type === "TOOL_CALL_RESULT")).toEqual([
      expect.objectContaining({ toolCallId: "card-1", content: "shown" }),
      expect.objectContaining({ toolCallId: "tasks-1" }),
    ]);
    expect(streamedText(run)).toBe("Let me show it.Done.");
    // Tasks reach the client's state through STATE_DELTA (JSON Patch) on the initial snapshot.
    expect(run.events.find((e) => e.type === "STATE_DELTA")).toBeDefined();
    expect(agent.state).toMatchObject({
      tasks: [expect.objectContaining({ content: "Book a table", status: "in_progress" })],
      inbox: [],
    });
    // The client's messages: the call on the assistant message and its result as a tool message.
    const assistant = agent.messages.find((m) => m.role === "assistant" && m.toolCalls?.some((c) => c.id === "card-1"));
    expect(assistant).toBeDefined();
    expect(agent.messages.find((m) => m.role === "tool" && m.toolCallId === "card-1")).toMatchObject({
      content: "shown",
    });
  });

  it("ends a run on a question with an interrupt, and a resume run answers it and streams the rest of the turn", async () => {
    const s = await start({ script: [askAge, { text: "Thanks, 41 noted." }] });
    const agent = agUiAgent(s);
    const asked = await say(agent, "Register me");
    expect(asked.error).toBeUndefined();
    expect(asked.outcome).toBe("interrupt");
    expect(asked.interrupts).toEqual([
      expect.objectContaining({
        reason: "input_required",
        toolCallId: "age-1",
        metadata: expect.objectContaining({
          renderer: "ask_age",
          input: { question: "How old are you?" },
          toolName: "ask_age",
        }),
      }),
    ]);
    // At the interrupt the history and state go out first (the spec's rule for resumable runs).
    expect(typesOf(asked).slice(-3)).toEqual(["MESSAGES_SNAPSHOT", "STATE_SNAPSHOT", "RUN_FINISHED"]);
    expect(agent.pendingInterrupts).toHaveLength(1);
    const interruptId = asked.interrupts[0]!.id;

    // A new message while the question waits is refused, as on the native route (the official
    // client refuses to send one itself; a raw request shows the server's answer).
    const newMessage = { id: crypto.randomUUID(), role: "user", content: "Something else" };
    const refused = await s.api("/ag-ui", {
      body: { threadId: agent.threadId, runId: "r-busy", messages: [...agent.messages, newMessage] },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("GLOVE_WAITING_FOR_ANSWER");

    // An answer that fails the tool's schema is a 400; the question keeps waiting.
    const invalid = await runOnce(agent, { resume: [{ interruptId, status: "resolved", payload: { age: -1 } }] });
    expect(String(invalid.error)).toMatch(/400/);
    expect((await s.api(`/conversations/${agent.threadId}`)).body.slots).toEqual([
      expect.objectContaining({ id: interruptId, status: "pending" }),
    ]);

    const resumed = await runOnce(agent, { resume: [{ interruptId, status: "resolved", payload: { age: 41 } }] });
    expect(resumed.error).toBeUndefined();
    expect(resumed.outcome).toBe("success");
    // The tool's result is reported against the original call, then the answer streams.
    expect(resumed.events.find((e) => e.type === "TOOL_CALL_RESULT")).toMatchObject({
      toolCallId: "age-1",
      content: JSON.stringify({ age: 41 }),
    });
    expect(typesOf(resumed)).not.toContain("TOOL_CALL_START");
    expect(streamedText(resumed)).toBe("Thanks, 41 noted.");
    expect(agent.pendingInterrupts).toEqual([]);

    // Replaying the same resume is safe: nothing is answered twice, the run reports the thread.
    const replay = await runOnce(agent, { resume: [{ interruptId, status: "resolved", payload: { age: 41 } }] });
    expect(replay.error).toBeUndefined();
    expect(replay.outcome).toBe("success");
    const messages = (await s.api(`/conversations/${agent.threadId}`)).body.messages as Message[];
    expectValidHistory(messages);
    expect(messages.flatMap((m) => m.tool_results ?? [])).toEqual([
      expect.objectContaining({ call_id: "age-1", result: expect.objectContaining({ data: { age: 41 } }) }),
    ]);
  });

  it("a snapshot at an interrupt names what this run streamed by the ids the client saw (no message twice)", async () => {
    const s = await start({
      script: [{ text: "Let me ask.", toolCalls: [{ name: "ask_age", input: { question: "Age?" }, id: "age-2" }] }],
    });
    const agent = agUiAgent(s);
    const asked = await say(agent, "Register me");
    expect(asked.outcome).toBe("interrupt");
    const streamedId = (asked.events.find((e) => e.type === "TEXT_MESSAGE_START") as unknown as { messageId: string })
      .messageId;
    const snapshot = asked.events.find((e) => e.type === "MESSAGES_SNAPSHOT") as unknown as {
      messages: Array<{ id: string; role: string; content?: string }>;
    };
    const userId = agent.messages[0]!.id;
    expect(snapshot.messages.map((m) => [m.id, m.role, m.content])).toEqual([
      [userId, "user", "Register me"],
      [streamedId, "assistant", "Let me ask."],
    ]);
    // The client's list after the snapshot: each message once.
    expect(agent.messages.map((m) => m.id)).toEqual([userId, streamedId]);
    // The stored ids are the conversation's own: a later snapshot (no run streamed them) uses those.
    const later = await runOnce(agUiAgent(s, { threadId: agent.threadId }), {});
    const stored = (
      later.events.find((e) => e.type === "MESSAGES_SNAPSHOT") as unknown as { messages: Array<{ id: string }> }
    ).messages.map((m) => m.id);
    expect(stored).toHaveLength(2);
    expect(stored).not.toContain(streamedId);
  });

  it("asks Glove's permission prompt as an AG-UI tool approval: approved runs the tool, denied refuses it", async () => {
    const s = await start({
      script: [
        { toolCalls: [{ name: "delete_file", input: { path: "/tmp/a" }, id: "del-1" }] },
        { text: "Deleted." },
        { toolCalls: [{ name: "delete_file", input: { path: "/tmp/b" }, id: "del-2" }] },
        { text: "Kept it." },
      ],
    });
    const agent = agUiAgent(s);
    const asked = await say(agent, "Delete /tmp/a");
    expect(asked.outcome).toBe("interrupt");
    const approval = asked.interrupts[0]!;
    expect(approval).toMatchObject({
      reason: "tool_call",
      toolCallId: "del-1",
      message: "Allow delete_file to run?",
      responseSchema: { type: "object", properties: { approved: { type: "boolean" } }, required: ["approved"] },
      metadata: {
        renderer: "permission_request",
        input: expect.objectContaining({ tool_name: "delete_file", input: { path: "/tmp/a" } }),
      },
    });
    // Not a yes/no: a clear 400, the prompt keeps waiting.
    const wrong = await runOnce(agent, {
      resume: [{ interruptId: approval.id, status: "resolved", payload: { approved: "yes" } }],
    });
    expect(String(wrong.error)).toMatch(/400/);
    const granted = await runOnce(agent, {
      resume: [{ interruptId: approval.id, status: "resolved", payload: { approved: true } }],
    });
    expect(granted.outcome).toBe("success");
    expect(granted.events.find((e) => e.type === "TOOL_CALL_RESULT")).toMatchObject({
      toolCallId: "del-1",
      content: "deleted /tmp/a",
    });

    const second = await say(agent, "Delete /tmp/b");
    const denied = await runOnce(agent, {
      resume: [{ interruptId: second.interrupts[0]!.id, status: "resolved", payload: { approved: false } }],
    });
    expect(denied.outcome).toBe("success");
    const result = denied.events.find((e) => e.type === "TOOL_CALL_RESULT") as unknown as {
      toolCallId: string;
      content: string;
    };
    expect(result.toolCallId).toBe("del-2");
    expect(result.content).not.toContain("deleted");
    expect(streamedText(denied)).toBe("Kept it.");
  });

  it("resumes a question whose turn left memory (a restart of the conversation) exactly like the native answer route", async () => {
    const s = await start({
      store: memoryStorage(),
      idleTimeoutMs: 50,
      script: [askAge, { text: "Thanks, 30 noted." }],
    });
    const agent = agUiAgent(s);
    const asked = await say(agent, "Register me");
    expect(asked.outcome).toBe("interrupt");
    // Nobody watches and the turn only waits for a person: it leaves memory as waiting.
    await until(() => s.server.liveConversations === 0);
    // A run with no new message reports the thread as it stands: still interrupted by the same question.
    const reload = agUiAgent(s, { threadId: agent.threadId });
    const state = await runOnce(reload, {});
    expect(state.outcome).toBe("interrupt");
    expect(state.interrupts.map((i) => i.id)).toEqual([asked.interrupts[0]!.id]);
    expect(reload.messages.map((m) => m.role)).toEqual(["user", "assistant"]);

    const resumed = await runOnce(reload, {
      resume: [{ interruptId: asked.interrupts[0]!.id, status: "resolved", payload: { age: 30 } }],
    });
    expect(resumed.error).toBeUndefined();
    expect(resumed.outcome).toBe("success");
    expect(streamedText(resumed)).toBe("Thanks, 30 noted.");
    const messages = (await s.api(`/conversations/${agent.threadId}`)).body.messages as Message[];
    expectValidHistory(messages);
    expect(messages.at(-1)?.text).toBe("Thanks, 30 noted.");
  });

  it("what the turn did after the run stopped on a question (a parallel call's result) reaches the page in the answering run", async () => {
    const s = await start({
      script: [
        {
          toolCalls: [
            { name: "delete_file", input: { path: "/tmp/c" }, id: "del-3" },
            { name: "show_card", input: { title: "Receipt" }, id: "card-3" },
          ],
        },
        { text: "All done." },
      ],
    });
    const agent = agUiAgent(s);
    const asked = await say(agent, "Delete /tmp/c and show a receipt");
    expect(asked.outcome).toBe("interrupt");
    const resumed = await runOnce(agent, {
      resume: [{ interruptId: asked.interrupts[0]!.id, status: "resolved", payload: { approved: true } }],
    });
    expect(resumed.outcome).toBe("success");
    const results = [...asked.events, ...resumed.events]
      .filter((e) => e.type === "TOOL_CALL_RESULT")
      .map((e) => (e as unknown as { toolCallId: string }).toolCallId);
    expect(results.sort()).toEqual(["card-3", "del-3"]);
    expect(
      agent.messages
        .filter((m) => m.role === "tool")
        .map((m) => (m as { toolCallId: string }).toolCallId)
        .sort(),
    ).toEqual(["card-3", "del-3"]);
  });

  it("a question outlives a server restart (SQLite): the page's resume to the new server resumes the stored turn", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "glove-ag-ui-restart-"));
    try {
      const first = await start({ dataDir, script: [askAge] });
      const agent = agUiAgent(first);
      const asked = await say(agent, "Register me");
      expect(asked.outcome).toBe("interrupt");
      await first.close();

      const second = await start({ dataDir, script: [{ text: "Thanks, 52 noted." }] });
      const reloaded = agUiAgent(second, { threadId: agent.threadId });
      // The reloaded page learns the open question from a run with no new message…
      const state = await runOnce(reloaded, {});
      expect(state.outcome).toBe("interrupt");
      expect(state.interrupts.map((i) => i.id)).toEqual([asked.interrupts[0]!.id]);
      // …and its answer resumes the stored turn on the new server.
      const resumed = await runOnce(reloaded, {
        resume: [{ interruptId: asked.interrupts[0]!.id, status: "resolved", payload: { age: 52 } }],
      });
      expect(resumed.outcome).toBe("success");
      expect(resumed.events.find((e) => e.type === "TOOL_CALL_RESULT")).toMatchObject({
        toolCallId: "age-1",
        content: JSON.stringify({ age: 52 }),
      });
      expect(streamedText(resumed)).toBe("Thanks, 52 noted.");
      const messages = (await second.api(`/conversations/${agent.threadId}`)).body.messages as Message[];
      expectValidHistory(messages);
      expect(messages.flatMap((m) => m.tool_results ?? [])).toHaveLength(1);
    } finally {
      await Promise.all(servers.splice(0).map((server) => server.close()));
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("a cancelled interrupt rejects the question; the turn goes on with the refusal", async () => {
    const s = await start({ script: [askAge, { text: "No problem." }] });
    const agent = agUiAgent(s);
    const asked = await say(agent, "Register me");
    const cancelled = await runOnce(agent, { resume: [{ interruptId: asked.interrupts[0]!.id, status: "cancelled" }] });
    expect(cancelled.outcome).toBe("success");
    expect(cancelled.events.find((e) => e.type === "TOOL_CALL_RESULT")).toMatchObject({ toolCallId: "age-1" });
    expect(streamedText(cancelled)).toBe("No problem.");
  });

  it("a run that joins a running turn (a retry, another tab) follows it to its end", async () => {
    const s = await start({
      script: [{ toolCalls: [{ name: "slow_tool", input: {}, id: "slow-1" }] }, { text: "Finished." }],
    });
    const agent = agUiAgent(s);
    const first = say(agent, "Go slow");
    await until(() => s.kit.toolSignals.length === 1);
    // Same thread, same last message: the retried run follows the turn that message started.
    const retry = agUiAgent(s, { threadId: agent.threadId, messages: structuredClone(agent.messages) });
    const joined = runOnce(retry, {});
    await until(async () => (await s.api(`/conversations/${agent.threadId}`)).body.busy === true);
    // Stopping goes through the native abort route (a closed AG-UI stream leaves the turn running).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await s.api(`/conversations/${agent.threadId}/abort`, { method: "POST" })).status).toBe(200);
    const [original, follower] = await Promise.all([first, joined]);
    expect(original.outcome).toBe("cancelled");
    expect(follower.outcome).toBe("cancelled");
    expect(typesOf(follower).slice(0, 3)).toEqual(["RUN_STARTED", "MESSAGES_SNAPSHOT", "STATE_SNAPSHOT"]);
  });

  it("heartbeats keep a quiet run open; the client reads past them", async () => {
    const s = await start({
      events: { heartbeatMs: 20 },
      script: [{ toolCalls: [{ name: "slow_tool", input: {}, id: "slow-h" }] }, { text: "Stopped." }],
    });
    const agent = agUiAgent(s);
    const running = say(agent, "Go slow");
    await until(() => s.kit.toolSignals.length === 1);
    // Several heartbeat intervals pass while the tool runs and nothing else is sent.
    const raw = await fetch(`${s.url}/ag-ui`, {
      method: "POST",
      headers: { authorization: "Bearer alice", "content-type": "application/json" },
      body: JSON.stringify({ threadId: agent.threadId, runId: "watch", messages: [] }),
    });
    const reader = raw.body!.pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    while (!seen.includes(": heartbeat")) seen += (await reader.read()).value ?? "";
    await reader.cancel();
    expect((await s.api(`/conversations/${agent.threadId}/abort`, { method: "POST" })).status).toBe(200);
    const run = await running;
    expect(run.error).toBeUndefined();
    expect(run.outcome).toBe("cancelled");
  });

  it("keeps the native rules: authentication, ownership, agent names and per-principal quotas", async () => {
    const s = await start({ script: [{ text: "one" }, { text: "two" }], limits: { turnsPerMinute: 1 } });
    const agent = agUiAgent(s);
    expect((await say(agent, "Hi")).error).toBeUndefined();
    const anonymous = await s.api("/ag-ui", {
      user: "",
      body: { threadId: crypto.randomUUID(), runId: "r", messages: [] },
    });
    expect(anonymous.status).toBe(401);
    const bob = agUiAgent(s, { user: "bob", threadId: agent.threadId });
    expect(String((await say(bob, "Let me in")).error)).toMatch(/404/);
    // An agent the server does not have is no route: 404, the typed not-found error.
    const wrongAgent = agUiAgent(s, { threadId: agent.threadId, path: "/ag-ui/nobody" });
    expect(String((await say(wrongAgent, "Hi")).error)).toMatch(/HTTP 404/);
    const unknown = await s.api("/ag-ui/nobody", { body: { threadId: crypto.randomUUID(), runId: "r", messages: [] } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({
      code: "GLOVE_NOT_FOUND",
      message: expect.stringContaining("/ag-ui/assistant"),
    });
    const limited = await s.api("/ag-ui/assistant", {
      body: { threadId: agent.threadId, runId: "r2", messages: [{ id: "m2", role: "user", content: "Again" }] },
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("every AG-UI event of this file validated against @ag-ui/core's schemas", () => {
    expect(received.count).toBeGreaterThan(50);
    for (const type of [
      "RUN_STARTED",
      "RUN_FINISHED",
      "TEXT_MESSAGE_CONTENT",
      "TOOL_CALL_RESULT",
      "STATE_SNAPSHOT",
      "STATE_DELTA",
      "MESSAGES_SNAPSHOT",
      "ACTIVITY_SNAPSHOT",
    ]) {
      expect(received.types.get(type), type).toBeGreaterThan(0);
    }
  });
});
