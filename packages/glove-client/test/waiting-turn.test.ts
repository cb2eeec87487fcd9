/**
 * A turn that waits for a person and left the server's memory (glove-server's turn_end "waiting",
 * on idle eviction, close or a restart): for the page the turn is over, its question stays
 * pending, and its call still waits (shown running, not aborted) — the same as a page that loads
 * the conversation's snapshot afterwards. An answer resumes the turn.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import { memoryStorage } from "glove-server";
import {
  buildTimeline,
  initialState,
  reduce,
  type GloveAction,
  type GloveState,
  type ServerSession,
  type ToolEntry,
  type WireSlot,
} from "glove-client";
import { GloveStore } from "../src/state/glove-store.js";
import { frameToAction } from "../src/server/wire-events.js";
import { SendQueue } from "../src/server/send-queue.js";
import type { ServerApi } from "../src/server/server-api.js";
import { session as openSession, startServer } from "./support/server.js";
import { immediateFrames, waitForState } from "./support/wait.js";
import { PROMPT_WAIT_MS } from "../../../test-support/timeouts.js";

const run = (actions: GloveAction[], state: GloveState = initialState()) => actions.reduce(reduce, state);
const statuses = (state: GloveState) =>
  buildTimeline(state).flatMap((e) => (e.kind === "tool" ? [[e.id, e.status]] : []));

const asked: Message[] = [
  { sender: "user", text: "Book me in" },
  { sender: "agent", text: "", tool_calls: [{ id: "form-1", tool_name: "ask_age", input_args: { question: "Age?" } }] },
];
const form: WireSlot = {
  id: "slot-1",
  renderer: "ask_age",
  input: { question: "Age?" },
  toolName: "ask_age",
  toolCallId: "form-1",
  displayStrategy: null,
  mode: "wait",
  status: "pending",
};

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("turn_end with status waiting", () => {
  it("ends the turn for the page without an error; the question stays pending and its call keeps running", () => {
    const ended = frameToAction({
      event: "turn_end",
      data: JSON.stringify({ turnId: "t1", status: "waiting" }),
      id: "7",
    });
    const state = run([
      { type: "turn_start", turnId: "t1" },
      { type: "messages_appended", messages: asked, startIndex: 0 },
      { type: "tool_use", id: "form-1", name: "ask_age", input: { question: "Age?" } },
      { type: "slot_push", slot: form },
      ended!.action,
    ]);
    expect(state).toMatchObject({ busy: false, turnId: null, error: null, interrupted: [] });
    expect(state.slots).toEqual([expect.objectContaining({ id: "slot-1", status: "pending" })]);
    expect(statuses(state)).toEqual([["form-1", "running"]]);

    // The same turn interrupted instead: its call was cut short.
    const interrupted = reduce(
      { ...state, busy: true, turnId: "t1" },
      { type: "turn_end", turnId: "t1", status: "interrupted" },
    );
    expect(statuses({ ...interrupted, slots: [] })).toEqual([["form-1", "aborted"]]);
  });

  it("leaves the page as a snapshot of the waiting conversation would (a reload, a restarted server)", () => {
    const live = run([
      { type: "turn_start", turnId: "t1" },
      { type: "messages_appended", messages: asked, startIndex: 0 },
      { type: "tool_use", id: "form-1", name: "ask_age", input: { question: "Age?" } },
      { type: "slot_push", slot: form },
      { type: "turn_end", turnId: "t1", status: "waiting" },
    ]);
    const reloaded = reduce(initialState(), {
      type: "snapshot",
      snapshot: {
        id: "c1",
        messages: asked,
        slots: [form],
        tasks: [],
        inbox: [],
        busy: false,
        turnId: null,
        streamingText: "",
      },
    });
    expect(buildTimeline(reloaded)).toEqual(buildTimeline(live));
    expect(statuses(reloaded)).toEqual([["form-1", "running"]]);
    expect(reloaded.slots.map(({ seq: _seq, ...slot }) => slot)).toEqual(
      live.slots.map(({ seq: _seq, ...slot }) => slot),
    );
    expect([reloaded.busy, reloaded.error]).toEqual([live.busy, live.error]);
    // Without the pending question (withdrawn), the unanswered call reads as cut short.
    expect(statuses(reduce(reloaded, { type: "slot_settled", slotId: "slot-1", status: "closed" }))).toEqual([
      ["form-1", "aborted"],
    ]);
  });

  it("removes the optimistic copy of the message that started it: the turn stored it before asking", async () => {
    const store = new GloveStore(undefined, { scheduler: immediateFrames });
    const api = { postMessage: async () => ({ turnId: "t1" }) } as unknown as ServerApi;
    const queue = new SendQueue({
      api,
      store,
      conversation: async () => "c1",
      dispatch: (action) => store.dispatch(action),
    });
    store.dispatch({ type: "user_message_queued", clientMessageId: "m1", text: "Book me in" });
    queue.add("m1", "Book me in");
    for (const deadline = Date.now() + PROMPT_WAIT_MS; store.current.pending[0]?.status !== "sent";) {
      if (Date.now() > deadline) throw new Error(`never sent: ${JSON.stringify(store.current.pending)}`);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    queue.onTurnEnd("t1", "waiting", undefined);
    expect(store.current.pending).toEqual([]);
  });
});

describe("a waiting turn against a real glove-server", () => {
  it("the page sees turn_end waiting on close; pages on the restarted server see the same question, one answers, both see it answered", async () => {
    const storage = memoryStorage();
    const script = [{ toolCalls: [{ name: "ask_age", input: { question: "How old?" } }] }, { text: "Thanks, noted." }];
    const first = await startServer(script, { store: storage });
    const tab = openSession(first.url);
    cleanups.push(() => tab.dispose());
    tab.sendMessage("sign me up");
    await waitForState(tab.store, (st) => st.slots.some((slot) => slot.status === "pending"));
    await first.close();
    const left = await waitForState(tab.store, (st) => !st.busy);
    expect(left.error).toBeNull();
    expect(left.pending).toEqual([]);
    expect(left.slots).toEqual([expect.objectContaining({ renderer: "ask_age", status: "pending" })]);
    expect(buildTimeline(left).find((e): e is ToolEntry => e.kind === "tool")?.status).toBe("running");

    const second = await startServer(script, { store: storage });
    cleanups.push(second.close);
    const page: ServerSession = openSession(second.url, { conversationId: left.conversationId! });
    cleanups.push(() => page.dispose());
    const reloaded = await waitForState(page.store, (st) => st.connection === "open" && st.slots.length > 0);
    // The same transcript (only the sender's tab keys its message by its client id), the call waiting.
    expect(buildTimeline(reloaded).map((e) => e.kind)).toEqual(buildTimeline(left).map((e) => e.kind));
    expect(statuses(reloaded)).toEqual(statuses(left));
    expect(reloaded.slots.map((slot) => [slot.id, slot.status])).toEqual(
      left.slots.map((slot) => [slot.id, slot.status]),
    );
    expect(reloaded.busy).toBe(false);

    // A second tab shows the same stored question; the first answers it.
    const other: ServerSession = openSession(second.url, { conversationId: left.conversationId! });
    cleanups.push(() => other.dispose());
    await waitForState(other.store, (st) => st.connection === "open" && st.slots[0]?.status === "pending");
    expect(await page.resolveSlot(reloaded.slots[0]!.id, { age: 40 })).toEqual({ ok: true });
    const done = await waitForState(page.store, (st) => !st.busy && st.messages.at(-1)?.text === "Thanks, noted.");
    expect(done.slots[0]).toMatchObject({ status: "resolved" });
    // The other tab sees the question answered (not still open) and the same end.
    const seen = await waitForState(other.store, (st) => !st.busy && st.messages.at(-1)?.text === "Thanks, noted.");
    expect(seen.slots.map((slot) => [slot.id, slot.status])).toEqual([[reloaded.slots[0]!.id, "resolved"]]);
    expect(buildTimeline(done).find((e): e is ToolEntry => e.kind === "tool")).toMatchObject({
      status: "success",
      renderData: { question: "How old?", age: 40 },
    });
  });
});
