import { afterEach, describe, expect, it } from "vitest";
import { captureTurn, matchedBatch, memoryRun, streamingBench, type StreamSample } from "../bench.js";
import { answerText } from "../fixtures.js";
import { memoryTable, streamingTable, verdict } from "../report.js";
import { inProcessTarget, type Target } from "../targets.js";

// Runs the server bench at a tiny size with both servers in this process: checks it measures
// what bench/README.md says and produces well-formed numbers (never timing thresholds).
describe("server bench (tiny, in process)", () => {
  const open: Target[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((t) => t.close()));
  });
  const target = async (...args: Parameters<typeof inProcessTarget>) => {
    const t = await inProcessTarget(...args);
    open.push(t);
    return t;
  };

  it("both servers stream the same frames to every client, and the figures are finite", async () => {
    const glove = await target("glove", { glove: { words: 30, chunkSize: 4 } });
    const bare = await target("bare");
    const { turn, cells } = await streamingBench(glove, bare, {
      sizes: [3, 7],
      reps: 2,
      batch: "match",
      minConversations: 6,
    });

    const text = turn
      .filter((e) => e.type === "text_delta")
      .map((e) => (e.data as { text: string }).text)
      .join("");
    expect(text).toBe(answerText(30));
    expect(turn[0]!.type).toBe("turn_start");
    expect(turn.at(-1)).toMatchObject({ type: "turn_end", data: { status: "done" } });

    expect(cells.map((c) => c.conversations)).toEqual([3, 7]);
    expect(cells.map((c) => c.rounds)).toEqual([2, 1]);
    for (const cell of cells) {
      for (const sample of [cell.glove, cell.bare]) {
        expect(sample.turns).toBe(cell.conversations * cell.rounds);
        expect(sample.events).toBe(sample.turns * turn.length);
        expect(sample.textDeltas).toBe(sample.turns * turn.filter((e) => e.type === "text_delta").length);
        expect(sample.uniform).toBe(true);
        expect(sample.cpuUs).toBeGreaterThan(0);
        expect(sample.wallMs).toBeGreaterThan(0);
        expect(sample.writes).toBeGreaterThan(0);
        // In one process the counters also see the client's sockets: only check they count.
        expect(sample.flushes).toBeGreaterThan(0);
      }
      expect(cell.batch).toBeGreaterThanOrEqual(1);
      expect(cell.ratios).toHaveLength(2);
      expect(Number.isFinite(cell.ratio) && cell.ratio > 0).toBe(true);
    }

    const table = streamingTable(cells);
    expect(table).toHaveLength(2 + cells.length);
    expect(
      table.slice(2).every((row) => !row.includes("n/a") && row.split("|").length === table[0]!.split("|").length),
    ).toBe(true);
    expect(verdict(cells)).toMatch(/N=3 [\d.]+×, N=7 [\d.]+× \(target ≤ 1\.3×\) → (PASS|FAIL)$/);
  });

  it("the bare server is given as many frames per event-loop turn as make glove-server's socket writes", () => {
    const sample = (flushes: number): StreamSample => ({
      conversations: 10,
      turns: 10,
      events: 2940,
      textDeltas: 2880,
      wallMs: 1,
      cpuUs: 1,
      writes: 2940,
      writeBytes: 1,
      flushes,
      uniform: true,
    });
    expect(matchedBatch(sample(40))).toBe(98); // 4 socket writes a turn: the POST's answer and 3 for 294 frames
    expect(matchedBatch(sample(2950))).toBe(1); // one per frame
    expect(matchedBatch(sample(2940))).toBe(1); // one per frame, the POST's answer sharing one
    expect(matchedBatch(sample(10))).toBe(294); // everything at once
  });

  it("the bare server replays exactly the captured turn", async () => {
    const glove = await target("glove", { glove: { words: 12, chunkSize: 5 } });
    const bare = await target("bare");
    const turn = await captureTurn(glove);
    await bare.configure({ events: turn, batch: 3 });
    const replayed = await captureTurn(bare);
    expect(replayed).toEqual(turn);
  });

  it("memory: held conversations stay live; with a short idle timeout they are all evicted", async () => {
    const held = await target("glove", { glove: { storage: "sqlite" } });
    const kept = await memoryRun(held, { conversations: 6, warmup: 2 });
    expect(kept.after.live).toBe(8);
    expect(Number.isFinite(kept.heapPerConversation)).toBe(true);

    const evicting = await target("glove", { glove: { storage: "sqlite", idleTimeoutMs: 100 } });
    const evicted = await memoryRun(evicting, {
      conversations: 6,
      warmup: 2,
      waitForEviction: true,
      evictionTimeoutMs: 10_000,
    });
    expect(evicted.evicted).toBe(true);
    expect(evicted.after.live).toBe(0);
    expect(Number.isFinite(evicted.rssPerConversation)).toBe(true);

    const table = memoryTable([
      { label: "held", result: kept },
      { label: "evicted", result: evicted },
    ]);
    expect(table).toHaveLength(4);
    expect(table.slice(2).every((row) => !row.includes("n/a"))).toBe(true);
  });
});
