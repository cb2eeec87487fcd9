import { expect, it } from "vitest";
import type { Message } from "glove-core";
import {
  InspectError,
  type ConversationRecord,
  type ServerStorage,
  type StorageInspector,
  type TraceLimits,
  type TurnTrace,
} from "glove-server";
import { question, record, seedCatalog, seedWaiting, waitingHistory } from "./seed.js";

/** Makes a fresh, empty storage (closed by the case) with the given trace limits. */
export type MakeStorage = (limits?: Partial<TraceLimits>) => Promise<ServerStorage>;

async function withStorage(
  make: MakeStorage,
  body: (storage: ServerStorage, inspect: StorageInspector) => Promise<void>,
  limits?: Partial<TraceLimits>,
): Promise<void> {
  const storage = await make(limits);
  try {
    expect(storage.inspect).toBeDefined();
    await body(storage, storage.inspect!);
  } finally {
    await storage.catalog.close?.();
    await storage.close?.();
  }
}

/** Every page of a listing, following nextCursor. */
export async function allPages(
  inspect: StorageInspector,
  query: Omit<Parameters<StorageInspector["listConversations"]>[0], "cursor">,
): Promise<ConversationRecord[][]> {
  const pages: ConversationRecord[][] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await inspect.listConversations({ ...query, ...(cursor ? { cursor } : {}) });
    pages.push(page.items);
    if (!page.nextCursor) return pages;
    cursor = page.nextCursor;
  }
}

export function trace(conversationId: string, turnId: string, startedAt: string, spans = 1): TurnTrace {
  return {
    conversationId,
    turnId,
    startedAt,
    endedAt: null,
    status: "running",
    truncated: false,
    spans: Array.from({ length: spans }, (_, i) => ({
      spanId: `span-${i}`,
      parentSpanId: null,
      name: "chat scripted",
      kind: "model_call" as const,
      startMs: Date.parse(startedAt) + i,
      durationMs: null,
      status: "running" as const,
      attributes: { "gen_ai.usage.input_tokens": i },
    })),
  };
}

async function expectInspectError(promise: Promise<unknown>, code = "GLOVE_INSPECT_INVALID"): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(InspectError.isInstance(error)).toBe(true);
  expect((error as InspectError).code).toBe(code);
}

/** The StorageInspector behaviour every storage gives the same way (memory, SQLite, PostgreSQL). */
export function inspectorCases(make: MakeStorage): void {
  it("an empty storage lists nothing, with zero totals", async () => {
    await withStorage(make, async (_storage, inspect) => {
      expect(await inspect.listConversations({ limit: 10 })).toEqual({
        items: [],
        nextCursor: null,
        total: 0,
        tokens: { in: 0, out: 0 },
      });
      expect(await inspect.messages("nope", { offset: 0, limit: 10 })).toEqual({ messages: [], offset: 0, total: 0 });
      expect(await inspect.traces.list("nope", { limit: 5 })).toEqual([]);
      expect(await inspect.traces.get("nope", "turn")).toBeUndefined();
    });
  });

  it("lists newest first in pages: each conversation once, totals and token sums over all pages", async () => {
    await withStorage(make, async (storage, inspect) => {
      const records = Array.from({ length: 23 }, (_, i) => record(i));
      // Two with the same updatedAt: the id orders them.
      records.push(
        record(23, { id: "conv-tie-a", updatedAt: records[5]!.updatedAt }),
        record(24, { id: "conv-tie-b", updatedAt: records[5]!.updatedAt }),
      );
      await seedCatalog(storage, records);
      const first = await inspect.listConversations({ limit: 10 });
      expect(first.total).toBe(25);
      expect(first.tokens).toEqual({
        in: records.reduce((s, r) => s + r.stats!.tokens_in, 0),
        out: records.reduce((s, r) => s + r.stats!.tokens_out, 0),
      });
      expect(first.items[0]).toMatchObject({
        id: "conv-00022",
        status: "idle",
        title: "Chat number 22",
        stats: records[22]!.stats,
      });
      const pages = await allPages(inspect, { limit: 10 });
      expect(pages.map((p) => p.length)).toEqual([10, 10, 5]);
      const expected = [...records]
        .sort((a, b) => (a.updatedAt === b.updatedAt ? (a.id < b.id ? 1 : -1) : a.updatedAt < b.updatedAt ? 1 : -1))
        .map((r) => r.id);
      expect(pages.flat().map((r) => r.id)).toEqual(expected);
      // A walk's later pages carry the totals its first page counted; a new first page counts afresh.
      await storage.catalog.create(record(30));
      const second = await inspect.listConversations({ limit: 10, cursor: first.nextCursor! });
      expect([second.total, second.items[0]!.id]).toEqual([25, pages[1]![0]!.id]);
      expect((await inspect.listConversations({ limit: 10 })).total).toBe(26);
    });
  });

  it("filters by text (title or id, ignoring case), agent, owner and updatedAt bounds, combined with AND", async () => {
    await withStorage(make, async (storage, inspect) => {
      const records = Array.from({ length: 30 }, (_, i) =>
        record(i, i === 7 ? { title: "Refund for ORDER 42%_" } : {}),
      );
      await seedCatalog(storage, records);
      const ids = async (query: Omit<Parameters<StorageInspector["listConversations"]>[0], "limit">) =>
        (await inspect.listConversations({ limit: 100, ...query })).items.map((c) => c.id).sort();
      expect(await ids({ text: "order 42%_" })).toEqual(["conv-00007"]);
      expect(await ids({ text: "CONV-0001" })).toEqual([
        "conv-00010",
        "conv-00011",
        "conv-00012",
        "conv-00013",
        "conv-00014",
        "conv-00015",
        "conv-00016",
        "conv-00017",
        "conv-00018",
        "conv-00019",
      ]);
      expect(await ids({ text: "%" })).toEqual(["conv-00007"]);
      expect(await ids({ id: "conv-00012" })).toEqual(["conv-00012"]);
      expect(await ids({ id: "conv-0001" })).toEqual([]);
      expect(await ids({ agent: "researcher" })).toEqual(
        records.filter((r) => r.agent === "researcher").map((r) => r.id),
      );
      expect(await ids({ owner: "bob", agent: "researcher" })).toEqual(
        records.filter((r) => r.owner === "bob" && r.agent === "researcher").map((r) => r.id),
      );
      const window = { updatedFrom: records[10]!.updatedAt, updatedTo: records[14]!.updatedAt };
      expect(await ids(window)).toEqual(records.slice(10, 15).map((r) => r.id));
      // Bounds in another offset mean the same instant.
      expect(await ids({ updatedFrom: records[10]!.updatedAt.replace("Z", "+00:00") })).toEqual(
        records.slice(10).map((r) => r.id),
      );
      const filtered = await inspect.listConversations({ limit: 2, ...window, owner: "alice" });
      expect(filtered.total).toBe(3);
      expect(filtered.tokens.in).toBe((10 + 12 + 14) * 10);
      expect(filtered.nextCursor).not.toBeNull();
    });
  });

  it("status: waiting (a stored question pends, also under a live turn), running (a turn holds it), error (last turn failed), idle; and filters by it", async () => {
    await withStorage(make, async (storage, inspect) => {
      await seedCatalog(storage, [
        record(1, { runningTurnId: "turn-1" }),
        record(2),
        record(3, { lastTurnStatus: "error" }),
        record(4, { lastTurnStatus: "done" }),
        record(5, { lastTurnStatus: "waiting" }),
        record(6, { runningTurnId: "turn-6" }),
        record(7, { lastTurnStatus: "error" }),
      ]);
      await seedWaiting(storage, "conv-00002");
      await seedWaiting(storage, "conv-00006");
      await seedWaiting(storage, "conv-00007");
      // An answered question no longer waits.
      const answered = question("q-answered");
      const store5 = await storage.store("conv-00005");
      await store5.appendMessages(waitingHistory(answered));
      await store5.addWait!(answered);
      await store5.settleWait!(answered.id, {
        status: "resolved",
        value: { age: 4 },
        settled_at: "2026-01-02T03:05:00.000Z",
      });
      const page = await inspect.listConversations({ limit: 50 });
      expect(Object.fromEntries(page.items.map((c) => [c.id, c.status]))).toEqual({
        "conv-00001": "running",
        "conv-00002": "waiting",
        "conv-00003": "error",
        "conv-00004": "idle",
        "conv-00005": "idle",
        "conv-00006": "waiting",
        "conv-00007": "waiting",
      });
      const byStatus = async (status: "running" | "waiting" | "error" | "idle") =>
        (await inspect.listConversations({ limit: 50, status })).items.map((c) => c.id).sort();
      expect(await byStatus("running")).toEqual(["conv-00001"]);
      expect(await byStatus("waiting")).toEqual(["conv-00002", "conv-00006", "conv-00007"]);
      expect(await byStatus("error")).toEqual(["conv-00003"]);
      expect(await byStatus("idle")).toEqual(["conv-00004", "conv-00005"]);
      expect((await inspect.listConversations({ limit: 1, status: "idle" })).total).toBe(2);
    });
  });

  it("message pages by offset: the same slices as the whole history, total, past the end", async () => {
    await withStorage(make, async (storage, inspect) => {
      await seedCatalog(storage, [record(1)]);
      const store = await storage.store("conv-00001");
      const history: Message[] = Array.from({ length: 57 }, (_, i) => ({
        sender: i % 2 ? "agent" : "user",
        text: `message ${i}`,
      }));
      await store.appendMessages(history.slice(0, 20));
      await store.appendMessages(history.slice(20));
      for (const [offset, limit] of [
        [0, 10],
        [10, 10],
        [50, 10],
        [56, 1],
        [57, 5],
        [500, 5],
      ] as const) {
        expect(await inspect.messages("conv-00001", { offset, limit })).toEqual({
          messages: history.slice(offset, offset + limit),
          offset,
          total: 57,
        });
      }
    });
  });

  it("bad arguments are refused with an InspectError naming them, before anything is read", async () => {
    await withStorage(make, async (storage, inspect) => {
      await seedCatalog(storage, [record(1)]);
      await expectInspectError(inspect.listConversations({ limit: 0 }));
      await expectInspectError(inspect.listConversations({ limit: 501 }));
      await expectInspectError(inspect.listConversations({ limit: 1.5 }));
      await expectInspectError(inspect.listConversations(null as never));
      await expectInspectError(inspect.listConversations({ limit: 5, status: "busy" as never }));
      await expectInspectError(inspect.listConversations({ limit: 5, updatedFrom: "yesterday" }));
      await expectInspectError(inspect.listConversations({ limit: 5, text: 42 as never }));
      await expectInspectError(
        inspect.listConversations({ limit: 5, cursor: "not a cursor!" }),
        "GLOVE_INSPECT_CURSOR",
      );
      await expectInspectError(
        inspect.listConversations({ limit: 5, cursor: Buffer.from('{"a":1}').toString("base64url") }),
        "GLOVE_INSPECT_CURSOR",
      );
      await expectInspectError(inspect.messages("conv-00001", { offset: -1, limit: 5 }));
      await expectInspectError(inspect.messages("conv-00001", { offset: 0, limit: 0 }));
      await expectInspectError(inspect.messages("", { offset: 0, limit: 5 }));
      await expectInspectError(inspect.traces.list("conv-00001", { limit: 0 }));
    });
  });

  it("traces: saved and replaced per turn, listed newest first with a before cursor, deleted with the conversation", async () => {
    await withStorage(make, async (storage, inspect) => {
      await seedCatalog(storage, [record(1), record(2)]);
      const t = (turn: number, spans = 1) =>
        trace("conv-00001", `turn-${turn}`, new Date(Date.UTC(2026, 1, 1, 0, turn)).toISOString(), spans);
      for (let turn = 0; turn < 5; turn++) await inspect.traces.save(t(turn));
      await inspect.traces.save(trace("conv-00002", "turn-x", "2026-02-01T00:00:00.000Z"));
      const done = { ...t(2, 3), endedAt: "2026-02-01T00:03:00.000Z", status: "completed" as const };
      await inspect.traces.save(done);
      expect(await inspect.traces.get("conv-00001", "turn-2")).toEqual(done);
      expect((await inspect.traces.list("conv-00001", { limit: 3 })).map((x) => x.turnId)).toEqual([
        "turn-4",
        "turn-3",
        "turn-2",
      ]);
      expect((await inspect.traces.list("conv-00001", { limit: 3, before: "turn-2" })).map((x) => x.turnId)).toEqual([
        "turn-1",
        "turn-0",
      ]);
      await storage.delete?.("conv-00001");
      expect(await inspect.traces.list("conv-00001", { limit: 10 })).toEqual([]);
      expect(await inspect.traces.get("conv-00002", "turn-x")).toBeDefined();
    });
  });

  it("traces are bounded: spans past spansPerTurn are dropped and counted, only the newest tracesPerConversation kept", async () => {
    await withStorage(
      make,
      async (_storage, inspect) => {
        const at = (minute: number) => new Date(Date.UTC(2026, 1, 1, 0, minute)).toISOString();
        await inspect.traces.save(trace("c", "big", at(0), 9));
        const big = (await inspect.traces.get("c", "big"))!;
        expect(big.spans.map((s) => s.spanId)).toEqual(["span-0", "span-1", "span-2", "span-3"]);
        expect(big).toMatchObject({ truncated: true, dropped: 5 });
        for (let turn = 1; turn <= 5; turn++) await inspect.traces.save(trace("c", `turn-${turn}`, at(turn)));
        expect((await inspect.traces.list("c", { limit: 10 })).map((x) => x.turnId)).toEqual([
          "turn-5",
          "turn-4",
          "turn-3",
        ]);
      },
      { spansPerTurn: 4, tracesPerConversation: 3 },
    );
  });
}
