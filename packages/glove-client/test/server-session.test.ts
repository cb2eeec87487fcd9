import { afterEach, describe, expect, it } from "vitest";
import { buildTimeline, type ServerSession, type ToolEntry, type UserEntry } from "glove-client";
import { session as openSession, startServer, wire } from "./support/server.js";
import { waitForState } from "./support/wait.js";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(...args: Parameters<typeof startServer>) {
  const started = await startServer(...args);
  cleanups.push(started.close);
  return started;
}
function session(...args: Parameters<typeof openSession>): ServerSession {
  const s = openSession(...args);
  cleanups.push(() => s.dispose());
  return s;
}
const settled = (s: ServerSession, messages: number) =>
  waitForState(s.store, (st) => !st.busy && st.messages.length === messages && st.pending.length === 0);

const FULL = "The quick brown fox jumps over the lazy dog, then naps in the warm afternoon sun for a while.";

describe("server mode against a real glove-server", () => {
  it("creates the conversation on the first message and keeps the history exact", async () => {
    const { url } = await server([{ text: "Hello from the server." }]);
    let announced: string | null = null;
    const s = session(url, { onConversationChange: (id) => (announced = id) });
    expect(s.store.current.connection).toBe("idle");
    s.sendMessage("Hi!");
    const state = await settled(s, 2);
    expect(announced).toBe(state.conversationId);
    expect(state.connection).toBe("open");
    expect(
      buildTimeline(state).map((e) => [
        e.kind,
        (e as UserEntry).text,
        e.key.startsWith("user:msg-") || e.key === "msg:1",
      ]),
    ).toEqual([
      ["user", "Hi!", true],
      ["agent_text", "Hello from the server.", true],
    ]);
    const snapshot = await s.api.snapshot(state.conversationId!);
    expect(state.messages).toEqual(snapshot.messages);
    expect(state.stats.turns).toBe(1);
  });

  it("resumes after a lost connection with Last-Event-ID: no duplicated and no missing text", async () => {
    const { url } = await server([{ text: FULL }], { delayMs: 15 });
    const net = wire();
    const s = session(url, { fetch: net.fetch });
    const texts: string[] = [];
    s.store.subscribe(() => texts.push(s.store.getSnapshot().streamingText));
    s.sendMessage("tell me");
    await waitForState(s.store, (st) => st.streamingText.length > 10);
    net.cut();
    await waitForState(s.store, (st) => st.connection === "reconnecting");
    const state = await settled(s, 2);
    expect(state.messages[1]!.text).toBe(FULL);
    for (const text of texts) expect(FULL.startsWith(text)).toBe(true); // never a duplicated chunk
    const reconnect = net.requests.filter((r) => r.url.endsWith("/events")).at(-1)!;
    expect(Number(reconnect.headers["last-event-id"])).toBeGreaterThan(0);
    expect(net.seen.filter((e) => e === "snapshot")).toHaveLength(1); // the first connection only: the rest was replayed
  });

  it("takes a snapshot instead when the server cannot replay, still without duplicates", async () => {
    const { url } = await server([{ text: FULL }], { delayMs: 15, events: { replayEvents: 3 } });
    const net = wire();
    const s = session(url, { fetch: net.fetch, offlineAfter: 100 });
    const texts: string[] = [];
    s.store.subscribe(() => texts.push(s.store.getSnapshot().streamingText));
    s.sendMessage("tell me");
    await waitForState(s.store, (st) => st.streamingText.length > 5);
    net.offline = true;
    net.cut();
    // Offline until the server finished the turn: far more than 3 events passed (the rest of the text, its end).
    const id = s.store.current.conversationId!;
    const read = async () =>
      (await (await fetch(`${url}/conversations/${id}`, { headers: { authorization: "Bearer alice" } })).json()) as {
        busy: boolean;
      };
    while ((await read()).busy) await new Promise((resolve) => setTimeout(resolve, 20));
    net.offline = false;
    const state = await settled(s, 2);
    expect(state.messages[1]!.text).toBe(FULL);
    for (const text of texts) expect(FULL.startsWith(text)).toBe(true);
    expect(net.seen.filter((e) => e === "snapshot").length).toBeGreaterThanOrEqual(2);
  });

  it("answers a pending slot after a reload (a new session on the same conversation)", async () => {
    const { url } = await server([
      { toolCalls: [{ name: "ask_age", input: { question: "How old?" } }] },
      { text: "Thanks!" },
    ]);
    const first = session(url);
    first.sendMessage("sign me up");
    const before = await waitForState(first.store, (st) => st.slots.some((x) => x.status === "pending"));
    first.dispose(); // the tab reloads

    const reloaded = session(url, { conversationId: before.conversationId! });
    const state = await waitForState(reloaded.store, (st) => st.slots.some((x) => x.status === "pending"));
    const slot = state.slots[0]!;
    expect(slot).toMatchObject({
      renderer: "ask_age",
      toolName: "ask_age",
      mode: "wait",
      input: { question: "How old?" },
    });
    const call = buildTimeline(state).find((e): e is ToolEntry => e.kind === "tool")!;
    expect(slot.toolCallId).toBe(call.id);
    expect(call.status).toBe("running");

    const refused = await reloaded.resolveSlot(slot.id, { age: "forty" });
    expect(refused).toMatchObject({ ok: false, reason: "invalid", issues: [expect.objectContaining({ path: "age" })] });
    expect(reloaded.store.current.slots[0]).toMatchObject({
      status: "pending",
      issues: [expect.objectContaining({ path: "age" })],
    });
    expect(await reloaded.resolveSlot(slot.id, { age: 40 })).toEqual({ ok: true });
    const done = await settled(reloaded, 4);
    expect(done.slots[0]).toMatchObject({ status: "resolved" });
    expect(buildTimeline(done).find((e): e is ToolEntry => e.kind === "tool")).toMatchObject({
      status: "success",
      renderData: { question: "How old?", age: 40 },
    });
  });

  it("starts from a server-rendered snapshot and resumes after it (no second snapshot)", async () => {
    const { url } = await server([{ text: "First answer." }, { text: "Second answer." }]);
    const first = session(url);
    first.sendMessage("one");
    const { conversationId } = await settled(first, 2);
    const initialSnapshot = await first.api.snapshot(conversationId!);
    first.dispose();

    const net = wire();
    const { GloveStore, ServerSession, initialState } = await import("glove-client");
    const page = new ServerSession(
      { server: url, headers: { authorization: "Bearer alice" }, fetch: net.fetch, initialSnapshot },
      new GloveStore(initialState(initialSnapshot)),
    );
    cleanups.push(() => page.dispose());
    expect(buildTimeline(page.store.current).map((e) => e.kind)).toEqual(["user", "agent_text"]); // before any request
    page.start();
    await waitForState(page.store, (st) => st.connection === "open");
    expect(net.requests[0]!.headers["last-event-id"]).toBe(String(initialSnapshot.lastEventId));
    page.sendMessage("two");
    const state = await settled(page, 4);
    expect(state.messages.map((m) => m.text)).toEqual(["one", "First answer.", "two", "Second answer."]);
    expect(net.seen).not.toContain("snapshot");
  });

  it("keeps two tabs in step: one sends, the other answers the slot, both see the same", async () => {
    const { url } = await server([
      { toolCalls: [{ name: "ask_age", input: { question: "Age?" } }] },
      { text: "Got it." },
    ]);
    const a = session(url);
    a.sendMessage("hello");
    const { conversationId } = await waitForState(
      a.store,
      (st) => st.conversationId !== null && st.connection === "open",
    );
    const b = session(url, { conversationId: conversationId! });
    const seenByB = await waitForState(b.store, (st) => st.slots.some((x) => x.status === "pending"));
    expect(await b.resolveSlot(seenByB.slots[0]!.id, { age: 33 })).toEqual({ ok: true });
    const [doneA, doneB] = await Promise.all([settled(a, 4), settled(b, 4)]);
    expect(doneA.messages).toEqual(doneB.messages);
    // The same transcript; only the sender's tab knows its own client message id.
    const strip = (entries: ReturnType<typeof buildTimeline>) =>
      entries.map(({ key: _key, ...e }) => ({ ...e, clientMessageId: undefined }));
    expect(strip(buildTimeline(doneA))).toEqual(strip(buildTimeline(doneB)));
    expect(doneA.slots.map((x) => x.status)).toEqual(["resolved"]);
    // The second answer loses: the first one won.
    expect(await a.resolveSlot(seenByB.slots[0]!.id, { age: 34 })).toMatchObject({ ok: false, reason: "settled" });
  });

  it("abort reaches the server: the running tool stops and every tab sees the turn end", async () => {
    const { url } = await server([{ toolCalls: [{ name: "slow_job", input: {} }] }, { text: "Back." }]);
    const a = session(url);
    a.sendMessage("run the job");
    const running = await waitForState(
      a.store,
      (st) => st.liveTools.some((t) => t.name === "slow_job") || st.messages.some((m) => m.tool_calls?.length),
    );
    const b = session(url, { conversationId: running.conversationId! });
    await waitForState(b.store, (st) => st.busy);
    await a.abort();
    const state = await waitForState(b.store, (st) => !st.busy && st.messages.some((m) => m.tool_results?.length));
    expect(buildTimeline(state).find((e): e is ToolEntry => e.kind === "tool")!.status).toBe("aborted");
    expect(state.error).toBeNull();
  });

  it("queues two quick messages behind the running turn (the server answers 409 to a second one)", async () => {
    const { url } = await server([{ text: "One." }, { text: "Two." }], { delayMs: 5 });
    const s = session(url);
    s.sendMessage("first");
    s.sendMessage("second");
    const state = await settled(s, 4);
    expect(state.messages.map((m) => m.text)).toEqual(["first", "One.", "second", "Two."]);
  });

  it("waits out another tab's turn instead of failing the message", async () => {
    const { url } = await server([{ text: "A long answer for tab A, streamed slowly." }, { text: "Answer for B." }], {
      delayMs: 10,
    });
    const a = session(url);
    a.sendMessage("from A");
    const { conversationId } = await waitForState(a.store, (st) => st.busy && st.conversationId !== null);
    const b = session(url, { conversationId: conversationId! });
    await waitForState(b.store, (st) => st.connection === "open");
    b.sendMessage("from B");
    const state = await settled(b, 4);
    expect(state.messages.map((m) => m.text)).toEqual([
      "from A",
      "A long answer for tab A, streamed slowly.",
      "from B",
      "Answer for B.",
    ]);
  });

  it("shows a send that could not reach the server as failed, and retries it with the same id", async () => {
    const { url } = await server([{ text: "Made it." }]);
    const net = wire();
    const s = session(url, { fetch: net.fetch });
    net.offline = true;
    const id = s.sendMessage("are you there?");
    const failed = await waitForState(s.store, (st) => st.pending[0]?.status === "failed");
    expect(failed.pending[0]!.error?.code).toBe("GLOVE_UNREACHABLE");
    net.offline = false;
    s.retry(id);
    const state = await settled(s, 2);
    expect(buildTimeline(state)[0]).toMatchObject({ kind: "user", key: `user:${id}`, text: "are you there?" });
  });

  it("shows a message whose turn failed before storing it as failed, with the turn's error", async () => {
    const { url } = await server([{ text: "unused" }]);
    const s = session(url);
    const id = s.sendMessage("/boom please");
    const state = await waitForState(s.store, (st) => !st.busy && st.pending[0]?.status === "failed");
    expect(state.messages).toEqual([]); // a failing hook stores nothing
    expect(state.pending[0]).toMatchObject({ clientMessageId: id, error: { code: "GLOVE_EXTENSION" } });
    expect(state.error?.code).toBe("GLOVE_EXTENSION");
  });

  it("reports an unreachable server as offline and retries with growing delays", async () => {
    const net = wire();
    net.offline = true;
    const s = session("http://127.0.0.1:9", {
      fetch: net.fetch,
      conversationId: "c1",
      offlineAfter: 3,
      backoff: { initialMs: 20, maxMs: 1000, factor: 2, jitter: 0 },
    });
    const states: string[] = [];
    s.store.subscribe(() => states.push(s.store.getSnapshot().connection));
    await waitForState(s.store, (st) => st.connection === "offline");
    await new Promise((resolve) => setTimeout(resolve, 400));
    const times = net.requests.map((r) => r.at);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(gaps.length).toBeGreaterThanOrEqual(3);
    // Timers never fire early (a busy machine may fire them late): each wait is at least its backoff step.
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(Math.min(1000, 20 * 2 ** i) - 2));
    expect(gaps.at(-1)!).toBeGreaterThan(gaps[0]! * 3);
    expect(states).toContain("reconnecting");
    expect(s.store.current.connection).toBe("offline");
  });

  it("comes back from offline on its own once the server is reachable", async () => {
    const { url } = await server([{ text: "Hi again." }]);
    const first = session(url);
    first.sendMessage("hello");
    const { conversationId } = await settled(first, 2);
    const net = wire();
    net.offline = true;
    const s = session(url, { fetch: net.fetch, conversationId: conversationId!, offlineAfter: 2 });
    await waitForState(s.store, (st) => st.connection === "offline");
    net.offline = false;
    const state = await waitForState(s.store, (st) => st.connection === "open" && st.messages.length === 2);
    expect(state.messages.map((m) => m.text)).toEqual(["hello", "Hi again."]);
  });

  it("stops with the server's error when it refuses for good (someone else's conversation)", async () => {
    const { url } = await server([{ text: "Private." }]);
    const alice = session(url);
    alice.sendMessage("secret");
    const { conversationId } = await settled(alice, 2);
    const mallory = session(url, { user: "mallory", conversationId: conversationId! });
    const state = await waitForState(mallory.store, (st) => st.connection === "offline" && st.error !== null);
    expect(state.error?.code).toBe("GLOVE_NOT_FOUND");
    expect(state.messages).toEqual([]);
  });
});
