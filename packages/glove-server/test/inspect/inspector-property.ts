import { expect } from "vitest";
import fc from "fast-check";
import type { ConversationQuery, ConversationRecord, ConversationStatus } from "glove-server";
import type { MakeStorage } from "./inspector-cases.js";
import { allPages } from "./inspector-cases.js";
import { record, seedCatalog, seedWaiting } from "./seed.js";

interface Row {
  record: ConversationRecord;
  waiting: boolean;
}

const letters = fc.constantFrom("a", "B", "c", "%", "_", " ", "Ab");
const title = fc.option(
  fc.array(letters, { maxLength: 6 }).map((parts) => parts.join("")),
  { nil: null },
);
/** A few distinct minutes, so many conversations share an updatedAt (the id breaks the tie). */
const row = fc.record({
  minute: fc.integer({ min: 0, max: 5 }),
  agent: fc.constantFrom("assistant", "researcher", "Assistant"),
  owner: fc.constantFrom("alice", "bob"),
  title,
  running: fc.boolean(),
  waiting: fc.boolean(),
  lastTurnStatus: fc.constantFrom(null, "done", "error", "aborted", "waiting"),
  tokensIn: fc.nat({ max: 1000 }),
  tokensOut: fc.nat({ max: 1000 }),
});
const query = fc.record(
  {
    text: fc.array(letters, { maxLength: 2 }).map((parts) => parts.join("")),
    id: fc.integer({ min: 0, max: 30 }).map((n) => `conv-${String(n).padStart(5, "0")}`),
    agent: fc.constantFrom("assistant", "researcher"),
    owner: fc.constantFrom("alice", "bob"),
    status: fc.constantFrom<ConversationStatus>("running", "waiting", "error", "idle"),
    updatedFrom: fc.integer({ min: 0, max: 5 }).map(at),
    updatedTo: fc.integer({ min: 0, max: 5 }).map(at),
  },
  { requiredKeys: [] },
);

function at(minute: number): string {
  return new Date(Date.UTC(2026, 0, 1) + minute * 60_000).toISOString();
}

function statusOf({ record: r, waiting }: Row): ConversationStatus {
  if (waiting) return "waiting";
  if (r.runningTurnId) return "running";
  return r.lastTurnStatus === "error" ? "error" : "idle";
}

/** The listing computed the plain way: filter everything, sort by (updatedAt, id) descending. */
function naive(rows: Row[], q: Omit<ConversationQuery, "limit" | "cursor">): Row[] {
  const fold = (s: string) => s.toLowerCase();
  return rows
    .filter(
      ({ record: r }) => !q.text || fold(r.title ?? "").includes(fold(q.text)) || fold(r.id).includes(fold(q.text)),
    )
    .filter(({ record: r }) => q.id === undefined || r.id === q.id)
    .filter(
      ({ record: r }) =>
        (q.agent === undefined || r.agent === q.agent) && (q.owner === undefined || r.owner === q.owner),
    )
    .filter(
      ({ record: r }) =>
        (q.updatedFrom === undefined || r.updatedAt >= q.updatedFrom) &&
        (q.updatedTo === undefined || r.updatedAt <= q.updatedTo),
    )
    .filter((r) => q.status === undefined || statusOf(r) === q.status)
    .sort((a, b) =>
      a.record.updatedAt === b.record.updatedAt
        ? a.record.id < b.record.id
          ? 1
          : -1
        : a.record.updatedAt < b.record.updatedAt
          ? 1
          : -1,
    );
}

/**
 * For random conversations and filters: following nextCursor visits every matching conversation
 * exactly once, in the order and with the statuses a plain in-memory filter gives, and every page
 * reports the same total and token sums.
 */
export async function checkListingProperty(make: MakeStorage, numRuns: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(
      fc.array(row, { minLength: 0, maxLength: 25 }),
      query,
      fc.integer({ min: 1, max: 7 }),
      async (specs, q, limit) => {
        const rows: Row[] = specs.map((spec, i) => ({
          record: record(i, {
            updatedAt: at(spec.minute),
            agent: spec.agent,
            owner: spec.owner,
            title: spec.title,
            runningTurnId: spec.running ? `turn-${i}` : null,
            lastTurnStatus: spec.lastTurnStatus as ConversationRecord["lastTurnStatus"],
            stats: { turns: 1, tokens_in: spec.tokensIn, tokens_out: spec.tokensOut },
          }),
          waiting: spec.waiting,
        }));
        const storage = await make();
        try {
          await seedCatalog(
            storage,
            rows.map((r) => r.record),
          );
          for (const r of rows) if (r.waiting) await seedWaiting(storage, r.record.id);
          const expected = naive(rows, q);
          const pages = await allPages(storage.inspect!, { ...q, limit });
          expect(pages.slice(0, -1).every((p) => p.length === limit)).toBe(true);
          const seen = pages.flat() as Array<ConversationRecord & { status: ConversationStatus }>;
          expect(seen.map((c) => c.id)).toEqual(expected.map((r) => r.record.id));
          expect(seen.map((c) => c.status)).toEqual(expected.map(statusOf));
          const first = await storage.inspect!.listConversations({ ...q, limit });
          expect(first.total).toBe(expected.length);
          expect(first.tokens).toEqual({
            in: expected.reduce((sum, r) => sum + r.record.stats!.tokens_in, 0),
            out: expected.reduce((sum, r) => sum + r.record.stats!.tokens_out, 0),
          });
        } finally {
          await storage.catalog.close?.();
          await storage.close?.();
        }
      },
    ),
    { numRuns, seed: 20261126 },
  );
}
