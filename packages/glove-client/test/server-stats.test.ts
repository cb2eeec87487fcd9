import { afterEach, describe, expect, it } from "vitest";
import { initialState, reduce, type ServerSession } from "glove-client";
import { session as openSession, startServer } from "./support/server.js";
import { waitForState } from "./support/wait.js";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function session(...args: Parameters<typeof openSession>): ServerSession {
  const s = openSession(...args);
  cleanups.push(() => s.dispose());
  return s;
}
const settled = (s: ServerSession, messages: number) =>
  waitForState(s.store, (st) => !st.busy && st.messages.length === messages && st.pending.length === 0);

/** Two turns: a tool call and an answer (two model calls), then one answer. */
const SCRIPT = [
  { toolCalls: [{ name: "show_card", input: { title: "Menu" } }], tokens_in: 10, tokens_out: 3 },
  { text: "Here is the menu.", tokens_in: 12, tokens_out: 4 },
  { text: "Two flat whites.", tokens_in: 20, tokens_out: 5 },
];
const TOTAL = { turns: 3, tokens_in: 42, tokens_out: 12 };

describe("useGlove().stats in server mode: the conversation's, in every tab", () => {
  it("a second tab and a reload start from the snapshot's stats, then count on together", async () => {
    const started = await startServer(SCRIPT.slice());
    cleanups.push(started.close);
    const first = session(started.url);
    first.sendMessage("The menu?");
    const id = (await settled(first, 4)).conversationId!;
    first.sendMessage("Two flat whites, please.");
    expect((await settled(first, 6)).stats).toEqual(TOTAL);

    // Another tab (or this one reloaded) on the same conversation.
    const second = session(started.url, { conversationId: id });
    expect((await waitForState(second.store, (st) => st.messages.length === 6)).stats).toEqual(TOTAL);
    // A page rendered from the snapshot (initialSnapshot) starts there too.
    const snapshot = await first.api.snapshot(id);
    expect(initialState(snapshot).stats).toEqual(TOTAL);

    // A turn either tab starts is counted once in both.
    second.sendMessage("Thanks!");
    const [a, b] = await Promise.all([settled(first, 8), settled(second, 8)]);
    expect(a.stats.turns).toBe(4);
    expect(b.stats).toEqual(a.stats);
    expect((await first.api.snapshot(id)).stats).toEqual(a.stats);
  });

  it("a snapshot without stats (an older server) keeps what the page counted", () => {
    const counted = reduce(initialState(), {
      type: "model_response_complete",
      text: "Hi",
      tokens_in: 5,
      tokens_out: 1,
    });
    const snapshot = {
      id: "c1",
      messages: [],
      slots: [],
      tasks: [],
      inbox: [],
      busy: false,
      turnId: null,
      streamingText: "",
    };
    expect(reduce(counted, { type: "snapshot", snapshot }).stats).toEqual({ turns: 1, tokens_in: 0, tokens_out: 0 });
  });
});
