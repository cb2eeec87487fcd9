import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ConversationPage, MessagePage, ServerStorage, TurnTrace } from "glove-server";
import { postgresData } from "../catalog-postgres.js";
import { sqliteData } from "../catalog-sqlite.js";
import { LIST_PAGE, MESSAGE_PAGE, operations } from "../measure.js";
import { AGENTS, bigMessage, expectedFiltered, isRunning } from "../seed.js";
import { requestLogGrowth } from "../request-log.js";
import { traceOverhead } from "../trace-overhead.js";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";

const CONVERSATIONS = 1_200;
const MESSAGES = 400;
const dir = mkdtempSync(join(tmpdir(), "glove-bench-studio-data-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs every bench read once on seeded data and checks what it answered (never how fast). */
async function checkReads(storage: ServerStorage): Promise<void> {
  const answers = new Map<string, unknown>();
  for (const op of operations(MESSAGES)) answers.set(op.name, await op.run(storage.inspect!));
  const [first, tenth, filtered, waiting, count, start, middle, end, traces, one] = [...answers.values()] as [
    ConversationPage,
    ConversationPage,
    ConversationPage,
    ConversationPage,
    ConversationPage,
    MessagePage,
    MessagePage,
    MessagePage,
    TurnTrace[],
    TurnTrace,
  ];
  const all = CONVERSATIONS + 1;
  expect(first.total).toBe(all);
  expect(first.items).toHaveLength(LIST_PAGE);
  expect(first.items[0]!.id).toBe("conv-big");
  expect(first.items[1]!.id).toBe(`conv-${String(CONVERSATIONS - 1).padStart(6, "0")}`);
  // The tenth page starts where nine pages of 50 end: the 451st newest.
  expect(tenth.items[0]!.id).toBe(`conv-${String(CONVERSATIONS - 450).padStart(6, "0")}`);
  expect(filtered.total).toBe(expectedFiltered(CONVERSATIONS, AGENTS[1], "refunds"));
  expect(filtered.items.every((c) => c.agent === AGENTS[1] && c.title!.includes("refunds"))).toBe(true);
  // Waiting: every 500th from 3, unless it also runs.
  const waits = Array.from({ length: CONVERSATIONS }, (_, i) => i).filter((i) => i % 500 === 3 && !isRunning(i));
  expect(waiting.items.map((c) => c.id).sort()).toEqual(waits.map((i) => `conv-${String(i).padStart(6, "0")}`));
  expect(count.total).toBe(CONVERSATIONS / 100);
  expect(start).toEqual({
    messages: Array.from({ length: MESSAGE_PAGE }, (_, i) => bigMessage(i)),
    offset: 0,
    total: MESSAGES,
  });
  expect(middle.messages[0]).toEqual(bigMessage(MESSAGES / 2));
  expect(end.messages.at(-1)).toEqual(bigMessage(MESSAGES - 1));
  expect(traces.map((t) => t.turnId)).toEqual(
    Array.from({ length: 20 }, (_, i) => `turn-${String(199 - i).padStart(4, "0")}`),
  );
  expect(one.spans).toHaveLength(30);
}

describe("studio-data bench: its reads answer correctly (small sizes, not timing)", () => {
  it(
    "on SQLite",
    async () => {
      const data = await sqliteData(dir, CONVERSATIONS, MESSAGES, 200);
      try {
        await checkReads(data.storage);
      } finally {
        await data.close();
      }
    },
    SLOW_WORK_MS,
  );

  it(
    "on PostgreSQL",
    async () => {
      const data = await postgresData(
        process.env.GLOVE_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test",
        CONVERSATIONS,
        MESSAGES,
        200,
      );
      try {
        await checkReads(data.storage);
      } finally {
        await data.close();
      }
    },
    SLOW_WORK_MS,
  );
});

describe("studio-data bench: trace overhead runs the same turns with and without recording", () => {
  it(
    "both servers finish every turn; only the traced one stores traces",
    async () => {
      const result = await traceOverhead(3, 2);
      expect(result.turns).toBe(11);
      expect(result.tracesStored).toBe(11);
      expect(result.untracedStored).toBe(0);
      expect(result.tracedMs).toBeGreaterThan(0);
      expect(result.untracedMs).toBeGreaterThan(0);
    },
    SLOW_WORK_MS,
  );
});

describe("studio-data bench: the request log's storage per turn", () => {
  it(
    "measures the same turns at each length: the log stays a flat share of the messages, whole requests would not",
    async () => {
      const [short, long] = await requestLogGrowth([10, 60]);
      expect(short!.messages).toBeGreaterThanOrEqual(10);
      expect(long!.messages).toBeGreaterThanOrEqual(60);
      expect(short!.requestLogChars).toBeGreaterThan(0);
      expect(long!.ratio / short!.ratio).toBeLessThan(1.1);
      expect(long!.wholeRequestsRatio).toBeGreaterThan(2 * short!.wholeRequestsRatio);
    },
    SLOW_WORK_MS,
  );
});
