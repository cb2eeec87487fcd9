/**
 * The peers bench: glove-server, the AI SDK and a bare node:http loop, each in its own process,
 * against one fake OpenAI server (its own process too): N concurrent conversations × 2 messages,
 * one tool call then a 20-chunk answer per message. Server CPU per streamed text event, as a ratio
 * to the bare loop in the same repetition; then heap per live idle conversation.
 */
import os from "node:os";
import { join, resolve } from "node:path";
import { env } from "../fixtures.js";
import { spawnTarget, type Target } from "../targets.js";
import { spawnFakeModel } from "./fake-model.js";
import { HIBERNATE_SETTLE_MS, peerMemory, type WakeCost } from "./peer-memory.js";
import type { PeerKind } from "./peer-options.js";
import { peersBench, peersTable } from "./peers-bench.js";

const SIZES = (process.env.BENCH_SIZES ?? "50,200")
  .split(",")
  .map(Number)
  .filter((n) => n > 0);
const STORAGES = (process.env.BENCH_STORAGE ?? "memory,sqlite").split(",") as Array<"memory" | "sqlite">;
const REPS = env("BENCH_REPS", 5);
const TURNS = env("BENCH_TURNS", 2);
const IDLE = env("BENCH_IDLE", 1000);
const WAKE = env("BENCH_WAKE", 50);
/** Uncounted rounds per size and peer before the repetitions (the JIT still compiles over the first ones). */
const WARMUP = env("BENCH_WARMUP", 3);
/** An earlier checkout, built (`npx tsc -b bench` there): its glove-server runs in the same rounds as "glove-peer@before". */
const BEFORE = process.env.BENCH_BEFORE;
/** BENCH_AISDK=0 leaves the AI SDK peer out (shorter before/after runs). */
const AISDK = process.env.BENCH_AISDK !== "0";
const log = (line = "") => console.log(line);

log(
  `server peers — Node ${process.version}, ${os.cpus().length} CPUs, load ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
);
const model = await spawnFakeModel();
const spawn = (kind: PeerKind, storage: "memory" | "sqlite" = "memory") =>
  spawnTarget(kind, { peer: { modelURL: model.url, storage } });
const spawnBefore = (storage: "memory" | "sqlite") =>
  spawnTarget(
    "glove-peer",
    { peer: { modelURL: model.url, storage } },
    { childFile: join(resolve(BEFORE!), "bench/dist/server/child.js"), label: "glove-peer@before" },
  );
const tables: string[] = [];
try {
  for (const storage of STORAGES) {
    // Every peer of a section is a fresh process: one kept from an earlier section would be
    // warmed (compiled) for more rounds than the others, which lowers its CPU per event for
    // 5–10 rounds (see "CPU per event (round 3)") and biased the later section's ratios.
    const bare = await spawn("bare-peer");
    const aisdk = AISDK ? await spawn("aisdk-peer") : undefined;
    const glove = await spawn("glove-peer", storage);
    const before = BEFORE ? await spawnBefore(storage) : undefined;
    try {
      log(
        `\nstorage ${storage}: ${SIZES.join(", ")} conversations × ${TURNS} messages, ${WARMUP} warm-up rounds, ${REPS} reps`,
      );
      const targets = [bare, aisdk, before, glove].filter((t): t is Target => t !== undefined);
      const cells = await peersBench(targets, { sizes: SIZES, reps: REPS, turns: TURNS, warmup: WARMUP, log });
      tables.push(...peersTable(cells, storage).slice(tables.length ? 2 : 0));
    } finally {
      await Promise.all([bare.close(), aisdk?.close(), glove.close(), before?.close()]);
    }
  }
  log();
  for (const line of tables) log(line);
  if (IDLE > 0) {
    log(
      `\nHeap per live idle conversation (${IDLE} conversations, one message each, streams closed; glove-server read ${HIBERNATE_SETTLE_MS / 1000} s later, past its default replay window; full GC before each reading):\n`,
    );
    log("| peer | storage | live | heap before MiB | heap after MiB | **heap KiB/conversation** |");
    log("|---|---|---:|---:|---:|---:|");
    const wakes: Array<["memory" | "sqlite", WakeCost]> = [];
    const runs: Array<[PeerKind, "memory" | "sqlite"]> = [
      ["aisdk-peer", "memory"],
      ["glove-peer", "memory"],
      ["glove-peer", "sqlite"],
    ];
    for (const [kind, storage] of runs) {
      const target: Target = await spawn(kind, storage);
      try {
        const glove = kind === "glove-peer";
        const m = await peerMemory(target, IDLE, glove ? { settleMs: HIBERNATE_SETTLE_MS, wake: WAKE } : {});
        if (m.wake) wakes.push([storage, m.wake]);
        const mib = (b: number) => (b / 1024 / 1024).toFixed(1);
        log(
          `| ${kind} | ${kind === "glove-peer" ? storage : "(in memory)"} | ${m.live} | ${mib(m.heapBefore)} | ${mib(m.heapAfter)} | **${(m.heapPerConversation / 1024).toFixed(1)}** |`,
        );
      } finally {
        await target.close();
      }
    }
    if (wakes.length > 0) {
      log(
        `\nWaking (one message each to ${WAKE} hibernating conversations, then one more each while awake; medians):\n`,
      );
      log("| storage | server CPU µs, asleep | awake | **÷** | wall ms, asleep | awake |");
      log("|---|---:|---:|---:|---:|---:|");
      for (const [storage, w] of wakes) {
        log(
          `| ${storage} | ${w.asleepCpuUs.toFixed(0)} | ${w.awakeCpuUs.toFixed(0)} | **${(w.asleepCpuUs / w.awakeCpuUs).toFixed(2)}×** | ${w.asleepWallMs.toFixed(1)} | ${w.awakeWallMs.toFixed(1)} |`,
        );
      }
    }
  }
} finally {
  await model.close();
}
log(
  `\nload after: ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
);
