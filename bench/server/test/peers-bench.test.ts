import { afterEach, describe, expect, it } from "vitest";
import { PROMPT_WAIT_MS } from "../../../test-support/timeouts.js";
import { ANSWER, startFakeModel, type FakeModel } from "../peers/fake-model.js";
import { peerMemory } from "../peers/peer-memory.js";
import { PEER_KINDS, type PeerKind } from "../peers/peer-options.js";
import { peersBench, peersTable } from "../peers/peers-bench.js";
import { inProcessTarget, type Target } from "../targets.js";

// The peers bench at a tiny size, every server in this process: each peer really runs the tool turn
// and streams the same answer, and the figures are well formed (never timing thresholds).
describe("server peers bench (tiny, in process)", () => {
  const open: Array<Target | FakeModel> = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((t) => t.close()));
  });
  const model = async () => {
    const m = await startFakeModel();
    open.push(m);
    return m;
  };
  const target = async (kind: PeerKind, modelURL: string, storage: "memory" | "sqlite" = "memory") => {
    const t = await inProcessTarget(kind, { peer: { modelURL, storage } });
    open.push(t);
    return t;
  };
  // The tool call, then the 20-chunk answer, once per message.
  const perMessage = ANSWER.split(" ")
    .map((w) => `${w} `)
    .join("");

  it(
    "glove-server, the AI SDK and the bare loop stream the same answer after the tool call, and the ratios are finite",
    async () => {
      const { url } = await model();
      const targets = await Promise.all(PEER_KINDS.map((kind) => target(kind, url)));
      const cells = await peersBench(targets, { sizes: [3], reps: 2, turns: 2 });

      expect(cells).toHaveLength(1);
      const [cell] = cells;
      for (const kind of PEER_KINDS) {
        const samples = cell!.samples[kind]!;
        expect(samples).toHaveLength(2);
        for (const sample of samples) {
          expect(sample.textDeltas).toBe(3 * 2 * 20);
          expect(sample.lastText).toBe(perMessage.repeat(2));
          expect(sample.cpuUs).toBeGreaterThan(0);
        }
        expect(Number.isFinite(cell!.ratio[kind]) && cell!.ratio[kind]! > 0).toBe(true);
      }
      expect(cell!.ratios["bare-peer"]).toEqual([1, 1]);
      const table = peersTable(cells, "memory");
      expect(table).toHaveLength(2 + PEER_KINDS.length);
      expect(table.slice(2).every((row) => !row.includes("NaN"))).toBe(true);
    },
    PROMPT_WAIT_MS,
  );

  it(
    "two builds of one peer are reported apart by their labels",
    async () => {
      const { url } = await model();
      const bare = await target("bare-peer", url);
      const glove = await target("glove-peer", url);
      const cells = await peersBench([bare, { ...glove, label: "glove-peer@before" }, glove], {
        sizes: [2],
        reps: 1,
        turns: 1,
        warmup: 0,
      });
      expect(Object.keys(cells[0]!.ratio).sort()).toEqual(["bare-peer", "glove-peer", "glove-peer@before"]);
      expect(cells[0]!.samples["glove-peer@before"]![0]!.textDeltas).toBe(2 * 20);
      expect(peersTable(cells, "memory")).toHaveLength(2 + 3);
    },
    PROMPT_WAIT_MS,
  );

  it(
    "memory: every conversation stays live on glove-server (SQLite) and the AI SDK after its message",
    async () => {
      const { url } = await model();
      for (const [kind, storage] of [
        ["glove-peer", "sqlite"],
        ["aisdk-peer", "memory"],
      ] as const) {
        const m = await peerMemory(await target(kind, url, storage), 4, { warmup: 2 });
        expect(m.live).toBe(6);
        expect(Number.isFinite(m.heapPerConversation)).toBe(true);
      }
    },
    PROMPT_WAIT_MS,
  );
});
