/* global AbortController, TextDecoder, URL, console, fetch, performance, setTimeout */
// bench/server-scale: glove-server's scale mode (PostgreSQL + Redis) at 1, 2 and 3 instances, next
// to the single-process server on the same PostgreSQL, in the same run. See README.md.
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import pg from "pg";

const env = (name, fallback) => (process.env[name] === undefined ? fallback : Number(process.env[name]));
const CONVERSATIONS = env("BENCH_CONVERSATIONS", 1000);
const TURNS = env("BENCH_TURNS", 2);
const REPS = env("BENCH_REPS", 3);
const INSTANCES = (process.env.BENCH_INSTANCES ?? "1,2,3").split(",").map(Number);
const PG_URL = process.env.GLOVE_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const REDIS_URL = process.env.GLOVE_REDIS_URL ?? "redis://127.0.0.1:6379";
const PROFILE = process.env.BENCH_PROFILE;
const BEFORE = process.env.BENCH_BEFORE;
/** BENCH_STAGGER_MS: conversation i sends its first message i/N of this many ms into the timed part (arrivals spread evenly, not one burst). */
const STAGGER_MS = env("BENCH_STAGGER_MS", 0);
const INSTANCE = fileURLToPath(new URL("./instance.mjs", import.meta.url));
const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const now = () => performance.timeOrigin + performance.now();
const log = (line = "") => console.log(line);

/**
 * BENCH_PIN=1: each instance on its own core (`taskset -c k`, instance k on core k mod the core
 * count), this process (the clients) on the last core. Redis and PostgreSQL are not pinned.
 */
const PIN = process.env.BENCH_PIN === "1" && spawnSync("taskset", ["-V"]).status === 0;
const CORES = os.cpus().length;
if (PIN) spawnSync("taskset", ["-p", "-c", String(CORES - 1), String(process.pid)]);

function start(mode, schema, prefix, before, index) {
  // BENCH_AFTER=<dir>: this build's rounds run a copy too, so other sessions rebuilding the
  // checkout's dist during a run cannot change one side of the comparison.
  const build = before ?? process.env.BENCH_AFTER;
  const env = build ? { ...process.env, BENCH_GLOVE_SERVER: build } : process.env;
  const argv = [INSTANCE, mode, schema, prefix];
  const [command, args] = PIN
    ? ["taskset", ["-c", String(index % CORES), process.execPath, ...argv]]
    : [process.execPath, argv];
  const child = spawn(command, args, { cwd: repoRoot, stdio: ["ignore", "pipe", "inherit"], env });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (c) => {
      out += c.toString();
      const url = /URL (\S+)/.exec(out)?.[1];
      if (url) resolve({ url, child });
    });
    child.on("exit", (code) => reject(new Error(`instance exited (${code})`)));
  });
}

/** Ends the profile of the timed part (BENCH_PROFILE) and waits until the instance wrote it. */
function profiled(instance) {
  const written = new Promise((resolve) =>
    instance.child.stdout.on("data", (c) => c.toString().includes("PROFILED") && resolve()),
  );
  instance.child.kill("SIGUSR2");
  return Promise.race([written, new Promise((resolve) => setTimeout(resolve, 10_000))]);
}

async function stop(instance) {
  const exited = new Promise((resolve) => instance.child.on("exit", resolve));
  instance.child.kill("SIGTERM");
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  instance.child.kill("SIGKILL");
}

const auth = (user) => ({ authorization: `Bearer ${user}`, "content-type": "application/json" });

/** One client's stream: counts events, records latencies of text chunks, resolves turn ends. */
function openStream(url, user, latencies) {
  const controller = new AbortController();
  const state = { events: 0, ends: 0, waiters: [], ready: undefined, startedAt: [], endedAt: [] };
  state.ready = new Promise((resolveReady, rejectReady) => {
    (async () => {
      const response = await fetch(url, { headers: auth(user), signal: controller.signal });
      const decoder = new TextDecoder();
      let buffer = "";
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = buffer.indexOf("\n\n")) !== -1) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const type = /\nevent: (\S+)/.exec(frame)?.[1];
          if (!type) continue;
          if (type === "snapshot") {
            resolveReady();
            continue;
          }
          state.events++;
          if (type === "text_delta") {
            const stamp = /"text":"@([\d.]+) "/.exec(frame)?.[1];
            if (stamp) latencies.push(now() - Number(stamp));
          } else if (type === "turn_start") {
            state.startedAt.push(now());
          } else if (type === "turn_end") {
            state.endedAt.push(now());
            state.ends++;
            for (const wake of state.waiters.splice(0)) wake();
          }
        }
      }
    })().catch((error) => {
      if (!controller.signal.aborted) rejectReady(error);
    });
  });
  return { state, close: () => controller.abort() };
}

async function waitEnds(stream, n) {
  while (stream.state.ends < n) await new Promise((resolve) => stream.state.waiters.push(resolve));
}

/** CPU seconds a process used so far (Linux /proc; undefined elsewhere). */
function processCpu(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function round(label, mode, count, before) {
  const schema = `gs_bench_${process.pid}_${Math.random().toString(36).slice(2, 7)}`;
  const prefix = `gs_bench_${process.pid}_${Math.random().toString(36).slice(2, 7)}`;
  const instances = [];
  for (let i = 0; i < count; i++) instances.push(await start(mode, schema, prefix, before, i));
  const latencies = [];
  const streams = [];
  try {
    const ids = [];
    for (let i = 0; i < CONVERSATIONS; i += 100) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(100, CONVERSATIONS - i) }, async (_, k) => {
          const user = `u${i + k}`;
          const response = await fetch(`${instances[(i + k) % count].url}/conversations`, {
            method: "POST",
            headers: auth(user),
            body: "{}",
          });
          return { id: (await response.json()).id, user };
        }),
      );
      ids.push(...batch);
    }
    for (const [i, { id, user }] of ids.entries())
      streams.push(openStream(`${instances[(i + 1) % count].url}/conversations/${id}/events`, user, latencies));
    await Promise.all(streams.map((s) => s.state.ready));
    latencies.length = 0;
    const postedAt = ids.map(() => []);
    const cpuBefore = process.cpuUsage();
    const serverCpuBefore = instances.map((i) => processCpu(i.child.pid));
    for (const i of instances) if (PROFILE) i.child.kill("SIGUSR2");
    const started = now();
    await Promise.all(
      ids.map(async ({ id, user }, i) => {
        if (STAGGER_MS > 0) await new Promise((resolve) => setTimeout(resolve, (i / ids.length) * STAGGER_MS));
        for (let t = 0; t < TURNS; t++) {
          postedAt[i].push(now());
          const target = instances[(i + 2 + t) % count].url;
          // The single process announces turn_end a moment before it accepts the next message: retry a 409.
          for (let attempt = 0; ; attempt++) {
            const response = await fetch(`${target}/conversations/${id}/messages`, {
              method: "POST",
              headers: auth(user),
              body: JSON.stringify({ text: `turn ${t}` }),
            });
            if (response.status === 202) break;
            if (response.status !== 409 || attempt > 200)
              throw new Error(`${label}: POST answered ${response.status} ${await response.text()}`);
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
          await waitEnds(streams[i], t + 1);
        }
      }),
    );
    const seconds = (now() - started) / 1000;
    if (PROFILE) await Promise.all(instances.map(profiled));
    const cpu = process.cpuUsage(cpuBefore);
    const serverCpu = instances.reduce(
      (sum, i, k) => sum + (processCpu(i.child.pid) ?? NaN) - (serverCpuBefore[k] ?? NaN),
      0,
    );
    const events = streams.reduce((sum, s) => sum + s.state.events, 0);
    const sorted = [...latencies].sort((a, b) => a - b);
    const waits = streams
      .flatMap((s, i) => s.state.startedAt.map((at, t) => at - postedAt[i][t]))
      .sort((a, b) => a - b);
    const durations = streams
      .flatMap((s) => s.state.endedAt.map((at, t) => at - s.state.startedAt[t]))
      .sort((a, b) => a - b);
    return {
      label,
      count,
      before: Boolean(before),
      turnsPerS: (CONVERSATIONS * TURNS) / seconds,
      eventsPerS: events / seconds,
      events,
      seconds,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      waitP50: percentile(waits, 50),
      turnP50: percentile(durations, 50),
      clientCpuS: (cpu.user + cpu.system) / 1e6,
      serverCpuS: serverCpu,
      serverUsPerEvent: (serverCpu * 1e6) / events,
    };
  } finally {
    for (const s of streams) s.close();
    await Promise.all(instances.map(stop));
    const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
    await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => pool.end());
    const redis = new Redis(REDIS_URL);
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== "0");
    redis.disconnect();
  }
}

log(
  `server-scale — Node ${process.version}, ${os.cpus().length} CPUs, load ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
);
if (PIN)
  log(`pinned: instance k on core k mod ${CORES}, the clients on core ${CORES - 1}; Redis and PostgreSQL unpinned`);
log(
  `${CONVERSATIONS} concurrent conversations × ${TURNS} turns, ${REPS} interleaved reps (medians); model: ${env("BENCH_CHUNKS", 10)} chunks, one per ${env("BENCH_CHUNK_MS", 20)} ms; SSE on another instance than the POST; clients in this process.`,
);
// Rounds interleaved over REPS repetitions (this machine is shared: load drifts), medians reported.
const scaled = (count) => `scale, ${count} instance${count > 1 ? "s" : ""}`;
const configs = [
  { label: "single process (no scale)", mode: "single", count: 1 },
  ...INSTANCES.map((count) => ({ label: scaled(count), mode: "scale", count })),
  // The scale mode as one engine (owner-host.ts, decision 0057); BENCH_OWNER=0 leaves it out.
  ...(process.env.BENCH_OWNER === "0"
    ? []
    : INSTANCES.map((count) => ({ label: `${scaled(count)}, owner engine`, mode: "owner", count }))),
  // BENCH_BEFORE=<dir>: the same scale rounds on an earlier build of glove-server (see instance.mjs).
  ...(BEFORE
    ? INSTANCES.map((count) => ({ label: `${scaled(count)}, before`, mode: "scale", count, before: BEFORE }))
    : []),
];
const samples = configs.map(() => []);
for (let rep = 0; rep < REPS; rep++) {
  for (const [k, config] of configs.entries()) {
    const sample = await round(config.label, config.mode, config.count, config.before);
    samples[k].push(sample);
    log(
      `  rep ${rep + 1}: ${config.label}: ${sample.eventsPerS.toFixed(0)} events/s, p50 ${sample.p50.toFixed(1)} ms, p99 ${sample.p99.toFixed(1)} ms, server CPU ${sample.serverUsPerEvent.toFixed(0)} µs/event, load ${os.loadavg()[0].toFixed(2)}`,
    );
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const results = samples.map((runs) => {
  const out = { ...runs[0] };
  for (const key of Object.keys(out))
    if (typeof out[key] === "number" && key !== "count") out[key] = median(runs.map((r) => r[key]));
  return out;
});
log();
log(
  "| server | turns/s | events/s | p50 latency (ms) | p99 latency (ms) | wall (s) | POST → turn_start p50 (ms) | turn_start → turn_end p50 (ms) | server CPU (s) | server CPU / event (µs) | client CPU (s) |",
);
log("|---|---|---|---|---|---|---|---|---|---|---|");
for (const r of results) {
  log(
    `| ${r.label} | ${r.turnsPerS.toFixed(1)} | ${r.eventsPerS.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.seconds.toFixed(1)} | ${r.waitP50.toFixed(0)} | ${r.turnP50.toFixed(0)} | ${r.serverCpuS.toFixed(1)} | ${r.serverUsPerEvent.toFixed(0)} | ${r.clientCpuS.toFixed(1)} |`,
  );
}
const single = results[0];
const bullmq = (r) => !r.before && r.label.startsWith("scale") && !r.label.endsWith("owner engine");
const owner = (r) => r.label.endsWith("owner engine");
const one = results.find((r) => bullmq(r) && r.count === 1);
const ownerOne = results.find((r) => owner(r) && r.count === 1);
log();
for (const r of results.filter((r) => one && bullmq(r) && r.count > 1)) {
  log(
    `Scaling (${r.count} ÷ 1 instance, events/s): ${(r.eventsPerS / one.eventsPerS).toFixed(2)}× (ideal ${r.count}.0×; this machine has ${CORES} cores shared by the instances, Redis, PostgreSQL and the clients, so ~${Math.min(r.count, CORES)}× is the ceiling and less is expected).`,
  );
}
const before = results.find((r) => r.before && r.count === 1);
if (one && before)
  log(
    `This build vs BENCH_BEFORE (1 instance): server CPU per event ${(one.serverUsPerEvent / before.serverUsPerEvent).toFixed(2)}×, p50 latency ${before.p50.toFixed(1)} → ${one.p50.toFixed(1)} ms, POST → turn_start p50 ${before.waitP50.toFixed(0)} → ${one.waitP50.toFixed(0)} ms.`,
  );
if (one) {
  log(
    `Per-event overhead of the scale mode vs the single process (1 instance each, same run): server CPU per event ${(one.serverUsPerEvent / single.serverUsPerEvent).toFixed(2)}× (${single.serverUsPerEvent.toFixed(0)} → ${one.serverUsPerEvent.toFixed(0)} µs, Redis's and PostgreSQL's own CPU not counted); latency p50 +${(one.p50 - single.p50).toFixed(1)} ms (${(one.p50 / single.p50).toFixed(2)}×), p99 +${(one.p99 - single.p99).toFixed(1)} ms; throughput ${(one.eventsPerS / single.eventsPerS).toFixed(2)}× of the single process.`,
  );
}
if (ownerOne) {
  log(
    `Owner engine vs the single process (1 instance each, same run): server CPU per event ${(ownerOne.serverUsPerEvent / single.serverUsPerEvent).toFixed(2)}× (${single.serverUsPerEvent.toFixed(0)} → ${ownerOne.serverUsPerEvent.toFixed(0)} µs); latency p50 +${(ownerOne.p50 - single.p50).toFixed(1)} ms; throughput ${(ownerOne.eventsPerS / single.eventsPerS).toFixed(2)}×.`,
  );
  for (const r of results.filter((r) => owner(r) && r.count > 1))
    log(
      `Owner engine, ${r.count} ÷ 1 instance (events/s): ${(r.eventsPerS / ownerOne.eventsPerS).toFixed(2)}×; server CPU per event ${(r.serverUsPerEvent / single.serverUsPerEvent).toFixed(2)}× the single process; p50 +${(r.p50 - single.p50).toFixed(1)} ms.`,
    );
}
log(
  `load after: ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
);
