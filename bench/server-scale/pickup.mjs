/* global performance, URL, setTimeout, console */
// Job pickup alone: BENCH_JOBS jobs queued at once (addBulk), one worker with concurrency
// BENCH_JOBS, each job holding its slot for BENCH_HOLD_MS without CPU (a turn waiting for its model).
// BullMQ's stock Worker against glove-server's PickupWorker, interleaved over BENCH_REPS reps.
// Reports, from the moment the jobs were queued: first start, p50 start, last start (ms), the
// worker process's CPU (ms), and the moveToActive calls (fetches outside a completion) and how
// many of them found nothing.
// Needs the built glove-server (npx tsc -b packages/glove-server) and Redis (GLOVE_REDIS_URL).
import os from "node:os";
import process from "node:process";
import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";

const built = process.env.BENCH_GLOVE_SERVER
  ? `${process.env.BENCH_GLOVE_SERVER}/`
  : new URL("../../packages/glove-server/", import.meta.url).pathname;
const { PickupWorker } = await import(`${built}dist/scale/redis/pickup-worker.js`);

const JOBS = Number(process.env.BENCH_JOBS ?? 1000);
const REPS = Number(process.env.BENCH_REPS ?? 3);
const HOLD_MS = Number(process.env.BENCH_HOLD_MS ?? 200);
const url = new URL(process.env.GLOVE_REDIS_URL ?? "redis://127.0.0.1:6379");
const connection = { host: url.hostname, port: Number(url.port || 6379), maxRetriesPerRequest: null };
const prefix = `bench_pickup_${process.pid}`;

async function round(Make) {
  const name = `q${Math.random().toString(36).slice(2, 8)}`;
  const queue = new Queue(name, { connection, prefix });
  const starts = [];
  let done = 0;
  let t0 = 0;
  let finished;
  const all = new Promise((resolve) => (finished = resolve));
  const worker = new Make(
    name,
    async () => {
      starts.push(performance.now() - t0);
      await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
      if (++done === JOBS) finished();
    },
    { connection, prefix, concurrency: JOBS, autorun: false },
  );
  // Every fetch outside a completion is a moveToActive call (a script run in Redis): count them.
  let fetches = 0;
  let empty = 0;
  const moveToActive = worker.moveToActive.bind(worker);
  worker.moveToActive = async (...args) => {
    const job = await moveToActive(...args);
    fetches++;
    if (!job) empty++;
    return job;
  };
  await worker.waitUntilReady();
  void worker.run();
  await new Promise((resolve) => setTimeout(resolve, 200)); // the worker blocks on the empty queue
  const cpu0 = process.cpuUsage();
  t0 = performance.now();
  await queue.addBulk(Array.from({ length: JOBS }, (_, i) => ({ name: "turn", data: { i } })));
  await all;
  const cpu = process.cpuUsage(cpu0);
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  starts.sort((a, b) => a - b);
  return {
    first: starts[0],
    p50: starts[Math.floor(starts.length / 2)],
    last: starts.at(-1),
    cpuMs: (cpu.user + cpu.system) / 1000,
    fetches,
    empty,
  };
}

const builds = [
  ["BullMQ Worker", Worker],
  ["PickupWorker", PickupWorker],
];
const samples = builds.map(() => []);
console.log(
  `pickup — Node ${process.version}, ${os.cpus().length} CPUs, load ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}; ${JOBS} jobs at once, concurrency ${JOBS}, ${HOLD_MS} ms per job, ${REPS} interleaved reps (medians)`,
);
for (let rep = 0; rep < REPS; rep++) {
  for (const [k, [label, Make]] of builds.entries()) {
    const s = await round(Make);
    samples[k].push(s);
    console.log(
      `  rep ${rep + 1}: ${label}: first ${s.first.toFixed(0)} ms, p50 ${s.p50.toFixed(0)} ms, last ${s.last.toFixed(0)} ms, CPU ${s.cpuMs.toFixed(0)} ms, load ${os.loadavg()[0].toFixed(2)}`,
    );
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(
  "\n| worker | first start (ms) | p50 start (ms) | last start (ms) | worker CPU (ms) | moveToActive calls | of them empty |\n|---|---|---|---|---|---|---|",
);
for (const [k, [label]] of builds.entries()) {
  const m = (key) => median(samples[k].map((s) => s[key])).toFixed(0);
  console.log(
    `| ${label} | ${m("first")} | ${m("p50")} | ${m("last")} | ${m("cpuMs")} | ${m("fetches")} | ${m("empty")} |`,
  );
}
const cleanup = new Redis(connection);
let cursor = "0";
do {
  const [next, keys] = await cleanup.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
  cursor = next;
  if (keys.length) await cleanup.del(...keys);
} while (cursor !== "0");
cleanup.disconnect();
