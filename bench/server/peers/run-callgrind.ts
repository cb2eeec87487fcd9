/**
 * The peers bench in instructions: each server under callgrind, warm-up rounds, then one round
 * of N conversations × 2 messages counted; instructions per streamed text event and the ratio to
 * the bare loop. Deterministic where CPU time on a shared machine is not (valgrind is slow: small N).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { env } from "../fixtures.js";
import { spawnTarget } from "../targets.js";
import { callgrindWrapper, instructionsDuring } from "./callgrind.js";
import { spawnFakeModel } from "./fake-model.js";
import type { PeerKind } from "./peer-options.js";
import { peerRound, type PeerSample } from "./peer-round.js";

const N = env("BENCH_CONVERSATIONS", 20);
const TURNS = env("BENCH_TURNS", 2);
/** Uncounted rounds first, so the counted one runs optimised code as a long-running server does. */
const WARMUP = env("BENCH_WARMUP", 5);
const PEERS = (process.env.BENCH_PEERS ?? "bare-peer,glove-peer:memory,glove-peer:sqlite,aisdk-peer").split(",");
const dir = process.env.BENCH_CALLGRIND_DIR ?? mkdtempSync(join(tmpdir(), "glove-callgrind-"));
const log = (line = "") => console.log(line);

const model = await spawnFakeModel();
const rows: Array<{ label: string; perText: number; sample: PeerSample }> = [];
try {
  for (const peer of PEERS) {
    const [kind, storage] = peer.split(":") as [PeerKind, "memory" | "sqlite" | undefined];
    const target = await spawnTarget(
      kind,
      { peer: { modelURL: model.url, storage: storage ?? "memory" } },
      { wrapper: callgrindWrapper(dir) },
    );
    try {
      for (let i = 0; i < WARMUP; i++) await peerRound(target, N, TURNS);
      let sample: PeerSample | undefined;
      const ir = await instructionsDuring(target, dir, async () => (sample = await peerRound(target, N, TURNS)));
      rows.push({ label: peer, perText: ir / sample!.textDeltas, sample: sample! });
      log(`  ${peer}: ${ir} instructions, ${sample!.textDeltas} text events`);
    } finally {
      await target.close();
    }
  }
} finally {
  await model.close();
}
const bare = rows.find((r) => r.label === "bare-peer");
log(
  `\nInstructions per streamed text event (callgrind Ir, server process, ${N} conversations × ${TURNS} messages, dumps in ${dir}):\n`,
);
log("| peer | Ir / text event | **÷ bare loop** |");
log("|---|---:|---:|");
for (const r of rows)
  log(`| ${r.label} | ${Math.round(r.perText)} | **${bare ? (r.perText / bare.perText).toFixed(2) : "n/a"}×** |`);
