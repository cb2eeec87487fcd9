import { afterEach, describe, expect, it } from "vitest";
import { ScriptedModel, type ScriptedTurn } from "glove-core/testing";
import { MemoryStore } from "glove-core";
import { z } from "zod";
import { createRelayModel } from "glove-core/models/relay";
import { createModelRelay } from "glove-server";
import {
  buildTimeline,
  GloveStore,
  LocalSession,
  type LocalSessionOptions,
  type ToolConfig,
  type ToolEntry,
  type UserEntry,
} from "glove-client";
import { askAge, deleteFile, showCard, slowJob } from "./support/tools.js";
import { immediateFrames, MemoryStorage, waitForState } from "./support/wait.js";

const sessions: LocalSession[] = [];
afterEach(() => {
  for (const session of sessions.splice(0)) session.dispose();
});

function open(
  script: ScriptedTurn[],
  options: Partial<LocalSessionOptions> & { delayMs?: number } = {},
): { session: LocalSession; model: ScriptedModel } {
  const model = new ScriptedModel(script, { delayMs: options.delayMs ?? 0 });
  const session = new LocalSession(
    { model, systemPrompt: "You are a test agent.", tools: [askAge, showCard, deleteFile, slowJob], ...options },
    new GloveStore(undefined, { scheduler: immediateFrames }),
  );
  sessions.push(session);
  session.start();
  return { session, model };
}

const idle = (session: LocalSession) =>
  waitForState(session.store, (s) => !s.busy && s.pending.length === 0 && s.messages.length > 0);

describe("local mode (the Glove in the tab)", () => {
  it("streams text, then shows the stored message; stats count calls and tokens", async () => {
    const { session } = open([{ text: "Hello there, my friend.", tokens_in: 10, tokens_out: 5 }], { delayMs: 3 });
    session.sendMessage("hi");
    const streaming = await waitForState(session.store, (s) => s.streamingText.startsWith("Hello there,"));
    expect(streaming.busy).toBe(true);
    const state = await idle(session);
    expect(buildTimeline(state).map((e) => [e.kind, (e as UserEntry).text])).toEqual([
      ["user", "hi"],
      ["agent_text", "Hello there, my friend."],
    ]);
    expect(state.streamingText).toBe("");
    expect(state.stats).toEqual({ turns: 1, tokens_in: 10, tokens_out: 5 });
    expect(state.conversationId).toMatch(/^session-/);
  });

  it("gives two calls of one turn each their own slot, attached to its call", async () => {
    const { session } = open([
      {
        toolCalls: [
          { name: "ask_age", input: { question: "Yours?" }, id: "call_a" },
          { name: "ask_age", input: { question: "Your partner's?" }, id: "call_b" },
        ],
      },
      { text: "Thanks." },
    ]);
    session.sendMessage("ages please");
    const state = await waitForState(session.store, (s) => s.slots.filter((x) => x.status === "pending").length === 2);
    const bySlot = Object.fromEntries(state.slots.map((s) => [s.toolCallId, s]));
    expect(bySlot.call_a).toMatchObject({
      renderer: "ask_age",
      toolName: "ask_age",
      input: { question: "Yours?" },
      mode: "wait",
      displayStrategy: "hide-on-complete",
    });
    expect(bySlot.call_b).toMatchObject({ input: { question: "Your partner's?" } });
    expect(await session.resolveSlot(bySlot.call_b!.id, { age: 38 })).toEqual({ ok: true });
    expect(await session.resolveSlot(bySlot.call_a!.id, { age: 40 })).toEqual({ ok: true });
    const done = await idle(session);
    const tools = buildTimeline(done).filter((e): e is ToolEntry => e.kind === "tool");
    expect(tools.map((t) => [t.id, t.status, t.renderData])).toEqual([
      ["call_a", "success", { question: "Yours?", age: 40 }],
      ["call_b", "success", { question: "Your partner's?", age: 38 }],
    ]);
    expect(done.slots.map((s) => s.status)).toEqual(["resolved", "resolved"]);
  });

  it("keeps the tool waiting when an answer fails its schema, and shows the issues", async () => {
    const { session } = open([{ toolCalls: [{ name: "ask_age", input: { question: "Age?" } }] }, { text: "Noted." }]);
    session.sendMessage("sign me up");
    const { slots } = await waitForState(session.store, (s) => s.slots.some((x) => x.status === "pending"));
    const slotId = slots[0]!.id;
    const refused = await session.resolveSlot(slotId, { age: "forty" });
    expect(refused).toMatchObject({ ok: false, reason: "invalid", issues: [{ path: "age" }] });
    const waiting = session.store.current.slots[0]!;
    expect(waiting.status).toBe("pending");
    expect(waiting.issues?.[0]?.path).toBe("age");
    expect(session.store.current.busy).toBe(true);
    expect(await session.resolveSlot(slotId, { age: 40 })).toEqual({ ok: true });
    const done = await idle(session);
    expect(done.slots[0]).toMatchObject({ status: "resolved" });
    expect(done.slots[0]!.issues).toBeUndefined();
    expect(await session.resolveSlot(slotId, { age: 41 })).toMatchObject({ ok: false, reason: "settled" });
  });

  it("asks for permission through a permission_request slot on the call", async () => {
    const { session } = open([
      { toolCalls: [{ name: "delete_file", input: { path: "a.txt" }, id: "call_del" }] },
      { text: "Deleted." },
    ]);
    session.sendMessage("delete a.txt");
    const { slots } = await waitForState(session.store, (s) => s.slots.some((x) => x.status === "pending"));
    expect(slots[0]).toMatchObject({
      renderer: "permission_request",
      toolCallId: "call_del",
      toolName: "delete_file",
      input: { tool_name: "delete_file", input: { path: "a.txt" } },
    });
    await session.resolveSlot(slots[0]!.id, { granted: true, remember: false });
    const done = await idle(session);
    expect((buildTimeline(done).find((e) => e.kind === "tool") as ToolEntry).output).toBe("deleted a.txt");
  });

  it("aborts a running turn: the call ends aborted, its slots close, queued messages fail with retry", async () => {
    const { session } = open([
      {
        toolCalls: [
          { name: "slow_job", input: {} },
          { name: "ask_age", input: { question: "Age?" } },
        ],
      },
      { text: "Back." },
    ]);
    session.sendMessage("run it");
    await waitForState(session.store, (s) => s.slots.some((x) => x.status === "pending"));
    const queued = session.sendMessage("and then this");
    await session.abort();
    const state = await waitForState(session.store, (s) => !s.busy);
    const tools = buildTimeline(state).filter((e): e is ToolEntry => e.kind === "tool");
    expect(tools.map((t) => t.status)).toEqual(["aborted", "aborted"]);
    expect(state.slots[0]!.status).toBe("closed");
    expect(state.pending).toEqual([
      expect.objectContaining({
        clientMessageId: queued,
        status: "failed",
        error: expect.objectContaining({ code: "GLOVE_ABORTED" }),
      }),
    ]);
    // Retrying runs it now.
    session.retry(queued);
    const after = await waitForState(
      session.store,
      (s) => !s.busy && s.pending.length === 0 && s.messages.some((m) => m.text === "Back."),
    );
    expect(
      buildTimeline(after)
        .filter((e) => e.kind === "user")
        .map((e) => (e as UserEntry).text),
    ).toEqual(["run it", "and then this"]);
  });

  it("queues two quick messages and runs them in order", async () => {
    const { session, model } = open([{ text: "First answer." }, { text: "Second answer." }], { delayMs: 2 });
    session.sendMessage("one");
    session.sendMessage("two");
    const mid = session.store.current;
    expect(buildTimeline(mid).map((e) => (e as UserEntry).status)).toEqual(["queued", "queued"]);
    const state = await waitForState(session.store, (s) => !s.busy && s.messages.length === 4);
    expect(state.messages.map((m) => m.text)).toEqual(["one", "First answer.", "two", "Second answer."]);
    expect(model.requests[1]!.messages.map((m) => m.text)).toEqual(["one", "First answer.", "two"]);
    expect(state.pending).toEqual([]);
  });

  it("shows a failed turn and keeps what the user typed", async () => {
    const { session } = open([{ error: new Error("model exploded") }]);
    session.sendMessage("hello?");
    const state = await waitForState(session.store, (s) => !s.busy && s.error !== null);
    expect(state.error?.message).toContain("model exploded");
    // The message was stored before the model failed: it is history, not a failed send.
    expect(buildTimeline(state).map((e) => [e.kind, (e as UserEntry).status])).toEqual([["user", undefined]]);
  });

  it("persists the session in storage: a reload opens the same history, renderResult data included", async () => {
    const storage = new MemoryStorage();
    const first = open([{ toolCalls: [{ name: "show_card", input: { title: "Tokyo" } }] }, { text: "There you go." }], {
      persistSession: { storage },
    });
    first.session.sendMessage("show me");
    const before = await idle(first.session);
    first.session.dispose();

    const reload = open([], { persistSession: { storage } });
    const after = await waitForState(reload.session.store, (s) => s.messages.length === before.messages.length);
    expect(after.conversationId).toBe(before.conversationId);
    const card = buildTimeline(after).find((e): e is ToolEntry => e.kind === "tool")!;
    expect(card).toMatchObject({ name: "show_card", status: "success", renderData: { card: "Tokyo" } });
    expect(after.slots).toEqual([]); // the live slot is gone; renderResult draws it from history
  });

  it("hands a transforming resolveSchema's output to the tool (the answer is parsed once)", async () => {
    const pickCount: ToolConfig = {
      name: "pick_count",
      description: "Asks how many, as text.",
      inputSchema: z.object({}),
      resolveSchema: z.string().transform((text) => text.length),
      async do(_input, display) {
        const count = await display.pushAndWait<unknown, number>({ input: {} });
        return `count ${count}`;
      },
    };
    const { session } = open([{ toolCalls: [{ name: "pick_count", input: {} }] }, { text: "Ok." }], {
      tools: [pickCount],
    });
    session.sendMessage("how many?");
    const { slots } = await waitForState(session.store, (s) => s.slots.some((x) => x.status === "pending"));
    expect(await session.resolveSlot(slots[0]!.id, "abcd")).toEqual({ ok: true });
    const done = await idle(session);
    expect((buildTimeline(done).find((e) => e.kind === "tool") as ToolEntry).output).toBe("count 4");
  });

  it("sends images with the text and shows them on the message", async () => {
    const { session, model } = open([{ text: "A red pixel." }]);
    session.sendMessage("what is this?", [{ data: "iVBORw0KGgo=", media_type: "image/png" }]);
    const queued = buildTimeline(session.store.current)[0] as UserEntry;
    expect(queued.images).toEqual(["data:image/png;base64,iVBORw0KGgo="]);
    const state = await idle(session);
    const user = buildTimeline(state)[0] as UserEntry;
    expect(user).toMatchObject({ text: "what is this?", images: ["data:image/png;base64,iVBORw0KGgo="] });
    expect(model.requests[0]!.messages[0]!.content?.[0]).toMatchObject({
      type: "image",
      source: { type: "base64", media_type: "image/png" },
    });
  });

  it("switches conversations without leaking the old one's events", async () => {
    const storeA = new MemoryStore("a");
    await storeA.appendMessages([
      { sender: "user", text: "from a" },
      { sender: "agent", text: "answer a" },
    ]);
    const stores: Record<string, MemoryStore> = { a: storeA, b: new MemoryStore("b") };
    const { session } = open([{ text: "answer b" }], {
      sessionId: "a",
      createStore: (id) => stores[id] ?? new MemoryStore(id),
    });
    await waitForState(session.store, (s) => s.messages.length === 2);
    session.switchConversation("b");
    await waitForState(session.store, (s) => s.conversationId === "b" && s.messages.length === 0);
    session.sendMessage("to b");
    const b = await idle(session);
    expect(b.messages.map((m) => m.text)).toEqual(["to b", "answer b"]);
    session.switchConversation("a");
    const a = await waitForState(session.store, (s) => s.conversationId === "a" && s.messages.length === 2);
    expect(a.messages.map((m) => m.text)).toEqual(["from a", "answer a"]);
    session.newConversation();
    const fresh = await waitForState(session.store, (s) => s.conversationId !== "a");
    expect(fresh.messages).toEqual([]);
  });

  it("reaches the model through a relay route (endpoint), the key staying on the server", async () => {
    const relay = createModelRelay({
      authenticate: (request) => (request.headers.get("authorization") === "Bearer tab" ? { id: "tab" } : null),
      provider: () => new ScriptedModel([{ text: "Relayed hello." }]),
      models: ["test-model"],
    });
    const listening = await relay.listen();
    try {
      const { session } = open([], {
        model: createRelayModel({ endpoint: listening.url, headers: { authorization: "Bearer tab" } }),
      });
      session.sendMessage("hi");
      const state = await idle(session);
      expect(state.messages.at(-1)?.text).toBe("Relayed hello.");
    } finally {
      await listening.close();
    }
  });
});
