/**
 * Retention never removes what a live conversation can still show or answer: a conversation with
 * a running turn, a pending question (its own or a sub-agent's), or held in memory keeps all it
 * stored (only traces past traceDays go, never the running turn's); a settled question within its
 * tombstone window still answers settledQuestion; an inactive conversation goes with every row of
 * it in every table. Real SQLite files and PostgreSQL schemas.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { settledQuestion } from "../../src/conversations/waiting-turns.js";
import { resolveRetention } from "../../src/retention/retention-options.js";
import { retentionPass } from "../../src/retention/retention-pass.js";
import type { ServerStorage } from "../../src/index.js";
import { dropTestSchemas, STORAGES } from "./support/storages.js";
import { familyIds, rowsNaming } from "./support/table-rows.js";
import { buildWorld, conversationSpec, NOW, readConversation, type Built } from "./support/world.js";

afterAll(dropTestSchemas);

const DAY = 86_400_000;
const rules = resolveRetention({
  inactiveConversationDays: { short: 30, "*": 90 },
  traceDays: 14,
  settledWaitDays: 7,
  branchesPerConversation: 1,
  batchSize: 7,
  timeBudgetMs: 1e9,
});

const isLive = ({ spec }: Built) =>
  spec.running || spec.pendingQuestion || spec.inMemory || spec.subagent === "pending";

async function runUntilWrapped(storage: ServerStorage, inMemory: Set<string>) {
  let cursor = "";
  for (;;) {
    const ctx = { db: storage.retention!, rules, now: () => NOW, inMemory: (id: string) => inMemory.has(id) };
    const outcome = await retentionPass(ctx, cursor);
    cursor = outcome.cursor;
    if (outcome.report.wrapped) return;
  }
}

describe.each(STORAGES)("retention pass (%s)", (label, makeStorage) => {
  it("keeps everything a live conversation shows or answers, and deletes inactive ones entirely", async () => {
    const storage = makeStorage();
    const db = storage.retention!;
    await fc.assert(
      fc.asyncProperty(fc.array(conversationSpec, { minLength: 1, maxLength: 6 }), async (specs) => {
        const world = await buildWorld(storage, specs);
        const before = new Map(
          await Promise.all(world.map(async (c) => [c.id, await readConversation(storage, c.id)] as const)),
        );
        const families = new Map(await Promise.all(world.map(async (c) => [c.id, await familyIds(db, c.id)] as const)));
        await runUntilWrapped(storage, new Set(world.filter((c) => c.spec.inMemory).map((c) => c.id)));

        for (const c of world) {
          const was = before.get(c.id)!;
          const inactiveDays = c.spec.agent === "short" ? 30 : 90;
          if (!isLive(c) && c.spec.idleDays >= inactiveDays) {
            expect(await rowsNaming(db, families.get(c.id)!)).toEqual({});
            continue;
          }
          const now = await readConversation(storage, c.id);
          expect(now.record).toEqual(was.record);
          expect(now.messages).toEqual(was.messages);
          expect(now.tasks).toEqual(was.tasks);
          const oldTrace = (turnId: string) =>
            !turnId.startsWith("turn-running") && c.spec.traces[Number(turnId.slice(5))]! > 14;
          expect(now.traces).toEqual(was.traces.filter((turnId) => !oldTrace(turnId)));
          if (isLive(c)) {
            expect(now.waits).toEqual(was.waits);
            expect(now.branches).toEqual(was.branches);
            continue;
          }
          expect(now.waits).toEqual(
            was.waits.filter((w) => w.status === "pending" || Date.parse(w.settled_at!) >= NOW - 7 * DAY),
          );
          const store = await storage.store(c.id);
          for (const [i, wait] of c.spec.settled.entries())
            if (wait.kind === "question" && wait.days <= 7)
              expect(await settledQuestion(store, `w${i}-${c.id}`)).toBe("resolved");
          const quiet = c.spec.idleDays * DAY >= rules.quietMs;
          expect(now.branches).toEqual(quiet ? was.branches.slice(-1) : was.branches);
        }
      }),
      { numRuns: label === "SQLite" ? 25 : 12 },
    );
    await storage.close?.();
  });
});
