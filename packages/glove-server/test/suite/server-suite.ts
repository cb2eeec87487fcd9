import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import type { GloveServerOptions, ServerStorage } from "glove-server";
import { bigText, startServer, streamedText, type TestServer } from "../support/harness.js";
import { branchCases } from "./branch-cases.js";
import { statsCases } from "./stats-cases.js";
import { traceCases } from "./trace-cases.js";
import type { SseClient, SseEvent } from "../support/sse-client.js";
import { PROMPT_WAIT_MS } from "../../../../test-support/timeouts.js";

const LONG_TEXT = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");

/** Every tool call in the history has exactly one result. */
export function expectValidHistory(messages: Message[]): void {
  const calls = messages.flatMap((m) => m.tool_calls ?? []).map((c) => c.id);
  const results = messages.flatMap((m) => m.tool_results ?? []).map((r) => r.call_id);
  expect([...results].sort()).toEqual([...calls].sort());
  expect(new Set(results).size).toBe(results.length);
}

function ids(events: SseEvent[]): number[] {
  return events.filter((e) => e.event !== "snapshot").map((e) => e.id!);
}

/** Turns whose events are larger than the replay window: the stream must carry them whole. */
const LARGE_TURNS = [
  { label: "a 200 KB tool result", result: 200_000 },
  { label: "a 1 MB tool result", result: 1_000_000 },
  { label: "five 100 KB text deltas", text: 500_000, chunkSize: 100_000 },
  { label: "1 MB of text in 10 KB deltas", text: 1_000_000, chunkSize: 10_000 },
] as const;

/**
 * What a reader knows once its stream reached `turn_end`: the history it rebuilt from the last
 * snapshot plus the messages appended after it. Asserts ids keep increasing by one after it.
 */
function historySeen(client: SseClient): Message[] {
  const start = client.events.findLastIndex((e) => e.event === "snapshot");
  const snapshot = client.events[start]!.data as { messages: Message[] };
  const after = client.events.slice(start + 1);
  const seen = ids(after);
  expect(seen.every((v, i) => v === (i === 0 ? client.events[start]!.id! : seen[i - 1]!) + 1)).toBe(true);
  const messages = [...snapshot.messages];
  for (const e of after)
    if (e.event === "messages_appended") messages.push(...(e.data as { messages: Message[] }).messages);
  return messages;
}

/**
 * The behaviour every storage must give a glove-server the same way (run on memory, SQLite and
 * PostgreSQL), through real sockets.
 */
export function describeServerSuite(
  label: string,
  makeStorage: () => ServerStorage | Promise<ServerStorage>,
  /** More server options per test (the scale mode runs the same suite). */
  extra: () => Partial<GloveServerOptions> = () => ({}),
  /** Event streams outlive the process's memory (scale mode): a resumed id replays instead of a snapshot. */
  durableStreams = false,
): void {
  describe(`glove-server on ${label}`, () => {
    let t: TestServer | undefined;
    afterEach(async () => {
      await t?.close();
      t = undefined;
    });
    const start = async (kit: Parameters<typeof startServer>[0] = {}) =>
      (t = await startServer({ store: await makeStorage(), ...extra(), ...kit }));

    statsCases(start);
    traceCases(start, makeStorage);
    branchCases(start);

    it("streams a turn with strictly increasing ids, then the snapshot holds the history", async () => {
      const s = await start({ kit: { script: [{ text: "Hello there, friend." }] } });
      const id = await s.conversation();
      const client = s.events(id);
      await client.waitForEvent("snapshot");
      expect(client.headers?.get("x-accel-buffering")).toBe("no");
      expect(client.headers?.get("content-type")).toMatch(/^text\/event-stream/);
      const sent = await s.api(`/conversations/${id}/messages`, { body: { text: "hi" } });
      expect(sent.status).toBe(202);
      await client.waitForEvent("turn_end");
      const seen = ids(client.events);
      expect(seen.every((v, i) => i === 0 || v > seen[i - 1]!)).toBe(true);
      expect(streamedText(client.events)).toBe("Hello there, friend.");
      const types = client.events.map((e) => e.event);
      expect(types.indexOf("turn_start")).toBeLessThan(types.indexOf("text_delta"));
      expect(client.events.find((e) => e.event === "turn_end")?.data).toEqual({
        turnId: sent.body.turnId,
        status: "done",
      });
      const snapshot = await s.api(`/conversations/${id}`);
      expect(snapshot.status).toBe(200);
      expect(snapshot.body.messages.map((m: Message) => m.text)).toEqual(["hi", "Hello there, friend."]);
      expect(snapshot.body).toMatchObject({ id, agent: "assistant", busy: false, lastEventId: client.lastId });
      const appended = client.events
        .filter((e) => e.event === "messages_appended")
        .flatMap((e) => (e.data as { messages: Message[] }).messages);
      expect(appended.map((m) => m.text)).toEqual(["hi", "Hello there, friend."]);
    });

    for (const turn of LARGE_TURNS) {
      it(`${turn.label} reaches a fast and a slow reader whole, through turn_end`, async () => {
        const script =
          "result" in turn
            ? [{ toolCalls: [{ name: "read_file", input: { chars: turn.result }, id: "big" }] }, { text: "Read it." }]
            : [{ text: bigText(turn.text) }];
        const s = await start({
          kit: { script, delayMs: 0, ...("chunkSize" in turn ? { chunkSize: turn.chunkSize } : {}) },
        });
        const id = await s.conversation();
        const fast = s.events(id);
        const slow = s.events(id, { readDelayMs: 20 });
        await fast.waitForEvent("snapshot");
        await slow.waitForEvent("snapshot");
        const sent = await s.api(`/conversations/${id}/messages`, { body: { text: "read" } });
        for (const client of [fast, slow]) await client.waitForEvent("turn_end", undefined);
        const stored = (await s.api(`/conversations/${id}`)).body.messages as Message[];
        for (const client of [fast, slow]) {
          expect(client.events.find((e) => e.event === "turn_end")?.data).toEqual({
            turnId: sent.body.turnId,
            status: "done",
          });
          // A reader that keeps up is never sent back to a snapshot, however large the events.
          expect(client.events.filter((e) => e.event === "snapshot")).toHaveLength(1);
          expect(historySeen(client)).toEqual(stored);
          if ("result" in turn) {
            const result = client.events.find((e) => e.event === "tool_use_result")?.data as {
              result: { data: unknown };
            };
            expect(result.result.data).toBe(bigText(turn.result));
          } else {
            expect(streamedText(client.events)).toBe(bigText(turn.text));
          }
        }
      });
    }

    it("a reader that stopped reading during a large turn gets a snapshot, then the live events", async () => {
      const read = (id: string) => ({ name: "read_file", input: { chars: 4_000_000 }, id });
      const s = await start({
        kit: {
          script: [
            { toolCalls: [read("r1"), read("r2"), read("r3")] },
            { text: "Read them." },
            { text: "Still here." },
          ],
          delayMs: 0,
        },
        events: { replayChars: 20_000, readerLagChars: 100_000 },
      });
      const id = await s.conversation();
      const asleep = s.events(id);
      const awake = s.events(id);
      await asleep.waitForEvent("snapshot");
      await awake.waitForEvent("snapshot");
      asleep.pause();
      await s.api(`/conversations/${id}/messages`, { body: { text: "read them" } });
      let state = (await s.api(`/conversations/${id}`)).body as { busy: boolean; lastEventId: number };
      while (state.busy) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        state = (await s.api(`/conversations/${id}`)).body;
      }
      // Both readers reach the end of the first turn: live, or (past what they may hold) through a snapshot.
      await awake.waitFor(() => (awake.lastId ?? 0) >= state.lastEventId);
      asleep.resume();
      await asleep.waitFor(() => (asleep.lastId ?? 0) >= state.lastEventId);
      // 12 MB went by while it slept, more than a reader may hold: it started over from a snapshot.
      expect(asleep.events.filter((e) => e.event === "snapshot").length).toBeGreaterThanOrEqual(2);
      const second = await s.api(`/conversations/${id}/messages`, { body: { text: "still there?" } });
      expect(second.status).toBe(202);
      for (const client of [asleep, awake])
        await client.waitForEvent("turn_end", (data) => data.turnId === second.body.turnId);
      const stored = (await s.api(`/conversations/${id}`)).body.messages as Message[];
      expect(historySeen(asleep)).toEqual(stored);
      expect(historySeen(awake)).toEqual(stored);
      expectValidHistory(stored);
    });

    it("resumes after a disconnect with Last-Event-ID: no gap and no duplicate", async () => {
      const s = await start({ kit: { script: [{ text: LONG_TEXT }], delayMs: 8 } });
      const id = await s.conversation();
      const first = s.events(id);
      await first.waitForEvent("snapshot");
      await s.api(`/conversations/${id}/messages`, { body: { text: "talk" } });
      await first.waitFor((events) => events.filter((e) => e.event === "text_delta").length >= 10);
      await first.close();
      const position = first.lastId!;
      const second = s.events(id, { after: position });
      await second.waitForEvent("turn_end");
      expect(second.events.some((e) => e.event === "snapshot")).toBe(false);
      expect(second.events[0]!.id).toBe(position + 1);
      const all = [...first.events, ...second.events];
      expect(streamedText(all)).toBe(LONG_TEXT);
      const seen = ids(all);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.every((v, i) => i === 0 || v === seen[i - 1]! + 1)).toBe(true);
    });

    it("a fresh stream mid-turn starts from a snapshot carrying the text streamed so far", async () => {
      const s = await start({ kit: { script: [{ text: LONG_TEXT }], delayMs: 8 } });
      const id = await s.conversation();
      const watcher = s.events(id);
      await watcher.waitForEvent("snapshot");
      await s.api(`/conversations/${id}/messages`, { body: { text: "talk" } });
      await watcher.waitFor((events) => events.filter((e) => e.event === "text_delta").length >= 5);
      const late = s.events(id);
      await late.waitForEvent("turn_end");
      const snapshot = late.events[0]!;
      expect(snapshot.event).toBe("snapshot");
      expect((snapshot.data as { busy: boolean }).busy).toBe(true);
      expect((snapshot.data as { streamingText: string }).streamingText + streamedText(late.events)).toBe(LONG_TEXT);
    });

    it("slots carry their tool call; answers are checked against the resolve schema; the first answer wins, also after a reconnect", async () => {
      const s = await start({
        kit: {
          script: [
            {
              toolCalls: [
                { name: "ask_age", input: { question: "How old?" }, id: "call_age" },
                { name: "show_card", input: { title: "Hi" }, id: "call_card" },
              ],
            },
            { text: "Thanks." },
          ],
        },
      });
      const id = await s.conversation();
      const tab1 = s.events(id);
      await tab1.waitForEvent("snapshot");
      await s.api(`/conversations/${id}/messages`, { body: { text: "go" } });
      const push = await tab1.waitForEvent("slot_push", (d) => (d.slot as { mode: string }).mode === "wait");
      const slot = (push.data as { slot: Record<string, unknown> }).slot;
      expect(slot).toMatchObject({
        toolCallId: "call_age",
        toolName: "ask_age",
        renderer: "ask_age",
        displayStrategy: "hide-on-complete",
        status: "pending",
      });
      const card = await tab1.waitForEvent("slot_push", (d) => (d.slot as { mode: string }).mode === "forget");
      expect((card.data as { slot: Record<string, unknown> }).slot).toMatchObject({
        toolCallId: "call_card",
        toolName: "show_card",
      });
      await tab1.close();

      // Reload: the pending slot is in the snapshot and answerable from another tab.
      const tab2 = s.events(id);
      const snap = await tab2.waitForEvent("snapshot");
      expect(
        (snap.data as { slots: Array<{ id: string; status: string }> }).slots.find((x) => x.id === slot.id)?.status,
      ).toBe("pending");
      const invalid = await s.api(`/conversations/${id}/slots/${slot.id}`, { body: { resolve: { age: "forty" } } });
      expect(invalid.status).toBe(400);
      expect(invalid.body.error.issues).toEqual([expect.objectContaining({ path: "age" })]);
      const unknown = await s.api(`/conversations/${id}/slots/not-a-slot`, { body: { resolve: 1 } });
      expect(unknown.status).toBe(404);
      const [a, b] = await Promise.all([
        s.api(`/conversations/${id}/slots/${slot.id}`, { body: { resolve: { age: 41 } } }),
        s.api(`/conversations/${id}/slots/${slot.id}`, { body: { resolve: { age: 42 } } }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      await tab2.waitForEvent("turn_end");
      expect(tab2.events.find((e) => e.event === "slot_settled")?.data).toEqual({
        slotId: slot.id,
        status: "resolved",
      });
      const result = tab2.events.find(
        (e) => e.event === "tool_use_result" && (e.data as { call_id: string }).call_id === "call_age",
      );
      expect((result!.data as { result: { data: { age: number } } }).result.data.age).toBe(a.status === 200 ? 41 : 42);
      const cardResult = [...tab1.events, ...tab2.events].find(
        (e) => e.event === "tool_use_result" && (e.data as { call_id: string }).call_id === "call_card",
      );
      expect((cardResult!.data as { result: { renderData: unknown } }).result.renderData).toEqual({ card: "Hi" });
      const history = (await s.api(`/conversations/${id}`)).body.messages as Message[];
      expectValidHistory(history);
    });

    it("abort reaches the tool and pending slots, persists aborted results; closing a stream never aborts", async () => {
      const s = await start({
        kit: {
          script: [
            {
              toolCalls: [
                { name: "slow_tool", input: {}, id: "s1" },
                { name: "ask_age", input: { question: "?" }, id: "a1" },
              ],
            },
          ],
        },
      });
      const id = await s.conversation();
      const tab = s.events(id);
      await tab.waitForEvent("snapshot");
      await s.api(`/conversations/${id}/messages`, { body: { text: "go" } });
      await tab.waitForEvent("slot_push");
      await tab.close();
      await new Promise((r) => setTimeout(r, 100));
      expect((await s.api(`/conversations/${id}`)).body.busy).toBe(true);
      const watcher = s.events(id);
      await watcher.waitForEvent("snapshot");
      const aborted = await s.api(`/conversations/${id}/abort`, { body: {} });
      expect(aborted.body).toMatchObject({ aborted: true, status: "aborted" });
      expect(s.kit.toolSignals.at(-1)?.aborted).toBe(true);
      await watcher.waitForEvent("turn_end");
      expect(watcher.events.find((e) => e.event === "turn_end")?.data).toMatchObject({ status: "aborted" });
      expect(watcher.events.find((e) => e.event === "slot_settled")?.data).toMatchObject({ status: "closed" });
      const snapshot = (await s.api(`/conversations/${id}`)).body;
      expect(snapshot.busy).toBe(false);
      const results = (snapshot.messages as Message[]).flatMap((m) => m.tool_results ?? []);
      expect(results.map((r) => [r.call_id, r.result.status]).sort()).toEqual([
        ["a1", "aborted"],
        ["s1", "aborted"],
      ]);
      expectValidHistory(snapshot.messages);
      // The conversation accepts the next message.
      s.kit.script.length = 0;
      expect((await s.api(`/conversations/${id}/messages`, { body: { text: "again" } })).status).toBe(202);
    });

    it("a message while a turn runs is a 409; the same clientMessageId twice starts one turn", async () => {
      const s = await start({ kit: { script: [{ text: LONG_TEXT }], delayMs: 5 } });
      const id = await s.conversation();
      const tab = s.events(id);
      await tab.waitForEvent("snapshot");
      const first = await s.api(`/conversations/${id}/messages`, { body: { text: "one", clientMessageId: "m-1" } });
      const retry = await s.api(`/conversations/${id}/messages`, { body: { text: "one", clientMessageId: "m-1" } });
      expect(retry.status).toBe(202);
      expect(retry.body).toEqual({ turnId: first.body.turnId, duplicate: true });
      const busy = await s.api(`/conversations/${id}/messages`, { body: { text: "two" } });
      expect(busy.status).toBe(409);
      expect(busy.body.error.code).toBe("GLOVE_BUSY");
      await tab.waitForEvent("turn_end");
      expect(tab.events.filter((e) => e.event === "turn_start").map((e) => e.data)).toEqual([
        { turnId: first.body.turnId, clientMessageId: "m-1" },
      ]);
      const history = (await s.api(`/conversations/${id}`)).body.messages as Message[];
      expect(history.filter((m) => m.sender === "user").map((m) => m.text)).toEqual(["one"]);
    });

    it("an idle conversation leaves memory and comes back from the store with ids still increasing", async () => {
      const s = await start({
        idleTimeoutMs: 100,
        kit: { script: [{ text: "first answer" }, { text: "second answer" }] },
      });
      const id = await s.conversation();
      let tab = s.events(id);
      await tab.waitForEvent("snapshot");
      await s.api(`/conversations/${id}/messages`, { body: { text: "one" } });
      await tab.waitForEvent("turn_end");
      const before = tab.lastId!;
      await tab.close();
      for (const deadline = Date.now() + PROMPT_WAIT_MS; Date.now() < deadline && s.server.liveConversations > 0;)
        await new Promise((r) => setTimeout(r, 50));
      expect(s.server.liveConversations).toBe(0);
      // A client that resumes from an id of the evicted incarnation gets a snapshot, never a gap.
      tab = s.events(id, { after: before });
      if (durableStreams) {
        const fresh = s.events(id);
        const snap = await fresh.waitForEvent("snapshot");
        expect(snap.id!).toBe(before);
        expect((snap.data as { messages: Message[] }).messages.map((m) => m.text)).toEqual(["one", "first answer"]);
      } else {
        const snap = await tab.waitForEvent("snapshot");
        expect(snap.id!).toBeGreaterThan(before);
        expect((snap.data as { messages: Message[] }).messages.map((m) => m.text)).toEqual(["one", "first answer"]);
      }
      await s.api(`/conversations/${id}/messages`, { body: { text: "two" } });
      await tab.waitForEvent("turn_end");
      expect(ids(tab.events).every((v) => v > before)).toBe(true);
      if (durableStreams) expect(tab.events.some((e) => e.event === "snapshot")).toBe(false);
      expect(streamedText(tab.events)).toBe("second answer");
    });

    it("pushes task list changes as tasks events and keeps them in the snapshot", async () => {
      const todos = [{ content: "Book the room", activeForm: "Booking the room", status: "in_progress" }];
      const s = await start({
        kit: {
          script: [{ toolCalls: [{ name: "glove_update_tasks", input: { todos }, id: "t1" }] }, { text: "Planned." }],
        },
      });
      const id = await s.conversation();
      const tab = s.events(id);
      await tab.waitForEvent("snapshot");
      await s.api(`/conversations/${id}/messages`, { body: { text: "plan it" } });
      const event = await tab.waitForEvent("tasks");
      expect((event.data as { tasks: Array<{ content: string; status: string }> }).tasks).toEqual([
        expect.objectContaining({ content: "Book the room", status: "in_progress" }),
      ]);
      await tab.waitForEvent("turn_end");
      const snapshot = (await s.api(`/conversations/${id}`)).body;
      expect(snapshot.tasks).toEqual([expect.objectContaining({ content: "Book the room" })]);
    });

    it("DELETE removes the conversation's stored data, not only its entry in the list", async () => {
      const storage = await makeStorage();
      const s = (t = await startServer({
        store: storage,
        kit: {
          script: [
            {
              toolCalls: [
                {
                  name: "glove_update_tasks",
                  input: { todos: [{ content: "a", activeForm: "a-ing", status: "pending" }] },
                  id: "t1",
                },
              ],
            },
            { text: "kept" },
          ],
        },
      }));
      const id = await s.conversation();
      const tab = s.events(id);
      await tab.waitForEvent("snapshot");
      await s.api(`/conversations/${id}/messages`, { body: { text: "remember this" } });
      await tab.waitForEvent("turn_end");
      const before = await storage.store(id);
      expect((await before.getMessages()).length).toBeGreaterThan(0);
      const question = {
        id: "q1",
        kind: "question",
        toolCallId: "t1",
        toolName: "ask",
        position: 0,
        renderer: "confirm",
        input: null,
        status: "pending",
        created_at: "2026-01-01T00:00:00.000Z",
        settled_at: null,
      } as const;
      await before.addWait?.(question);
      expect((await s.api(`/conversations/${id}`, { method: "DELETE" })).status).toBe(204);
      const after = await storage.store(id);
      expect(await after.getMessages()).toEqual([]);
      expect((await after.getTasks?.()) ?? []).toEqual([]);
      expect((await after.getWaits?.()) ?? []).toEqual([]);
    });

    it("close() ends a running turn as interrupted and leaves valid history", async () => {
      const storage = await makeStorage();
      // The test reads the history after the server closed, so it closes the storage itself.
      const s = await startServer({
        store: { catalog: storage.catalog, store: storage.store },
        kit: { script: [{ toolCalls: [{ name: "slow_tool", input: {}, id: "k1" }] }] },
      });
      const id = await s.conversation();
      const tab = s.events(id);
      await tab.waitForEvent("snapshot");
      await s.api(`/conversations/${id}/messages`, { body: { text: "go" } });
      await tab.waitForEvent("tool_use");
      const storeBefore = await storage.store(id);
      await s.server.close();
      await tab.waitFor((events) => events.some((e) => e.event === "turn_end"));
      expect(tab.events.find((e) => e.event === "turn_end")?.data).toMatchObject({ status: "interrupted" });
      const messages = await storeBefore.getMessages();
      expectValidHistory(messages);
      expect(messages.at(-1)?.tool_results?.[0]?.result.status).toBe("aborted");
      await tab.close();
      await storage.close?.();
    });
  });
}
