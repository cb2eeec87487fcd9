import { afterAll, describe, expect, it } from "vitest";
import { Queue, Worker, type Job, type WorkerOptions } from "bullmq";
import { PickupWorker } from "../../src/scale/redis/pickup-worker.js";
import { dropRedisPrefix, REDIS_URL, uniqueName } from "./support/scale-env.js";

const prefix = uniqueName("pickup");
const url = new URL(REDIS_URL);
const connection = { host: url.hostname, port: Number(url.port || 6379), maxRetriesPerRequest: null };
afterAll(async () => {
  await dropRedisPrefix(prefix);
});

interface Burst {
  /** Jobs the worker had taken ('active' events) when its first job started. */
  fetchedAtFirstStart: number;
  /** Most jobs processing at once. */
  maxRunning: number;
  completed: number;
}

type MakeWorker = new (name: string, processor: (job: Job) => Promise<void>, options: WorkerOptions) => Worker;

/** Queues `jobs` jobs at once, then runs one worker of `concurrency` over them; every job waits until the worker is full. */
async function burst(make: MakeWorker, jobs: number, concurrency: number): Promise<Burst> {
  const queueName = uniqueName("q");
  const queue = new Queue(queueName, { connection, prefix });
  await queue.addBulk(Array.from({ length: jobs }, (_, i) => ({ name: "turn", data: { i } })));
  let fetched = 0;
  let fetchedAtFirstStart = -1;
  let running = 0;
  let maxRunning = 0;
  let completed = 0;
  let release = () => undefined as void;
  const full = new Promise<void>((resolve) => (release = resolve));
  const processor = async (_job: Job) => {
    if (fetchedAtFirstStart < 0) fetchedAtFirstStart = fetched;
    running++;
    maxRunning = Math.max(maxRunning, running);
    if (running >= concurrency) release();
    await full;
    running--;
    completed++;
  };
  const worker = new make(queueName, processor, { connection, prefix, concurrency, autorun: false });
  worker.on("active", () => fetched++);
  const done = new Promise<void>((resolve) => worker.on("completed", () => completed === jobs && resolve()));
  void worker.run();
  await done;
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  return { fetchedAtFirstStart, maxRunning, completed };
}

describe("PickupWorker: job pickup that does not serialise", () => {
  it("starts the first job of a burst before it has fetched the whole concurrency (BullMQ's Worker does not)", async () => {
    const stock = await burst(Worker, 40, 20);
    expect(stock.fetchedAtFirstStart).toBe(20); // the behaviour replaced: 20 fetches in a row first
    const pickup = await burst(PickupWorker, 40, 20);
    expect(pickup.fetchedAtFirstStart).toBeLessThan(20);
    expect(pickup.completed).toBe(40);
  });

  it("never runs more jobs than its concurrency, and takes the rest as jobs complete", async () => {
    const result = await burst(PickupWorker, 70, 16);
    expect(result.maxRunning).toBe(16);
    expect(result.completed).toBe(70);
  });

  it("waits for jobs that arrive later (one blocking fetch) and closes after its running jobs", async () => {
    const queueName = uniqueName("q");
    const queue = new Queue(queueName, { connection, prefix });
    const seen: number[] = [];
    let finish = () => undefined as void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    const worker = new PickupWorker<{ i: number }>(
      queueName,
      async (job) => {
        seen.push(job.data.i);
        if (job.data.i === 2) await held;
      },
      { connection, prefix, concurrency: 4, autorun: false },
    );
    void worker.run();
    const second = new Promise<void>((resolve) => worker.on("active", (job) => job.data.i === 2 && resolve()));
    await queue.add("turn", { i: 1 });
    await new Promise<void>((resolve) => worker.once("completed", () => resolve()));
    await queue.add("turn", { i: 2 });
    await second;
    let closed = false;
    const closing = worker.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(false); // job 2 still runs
    finish();
    await closing;
    expect(seen).toEqual([1, 2]);
    expect(await queue.getCompletedCount()).toBe(2);
    await queue.obliterate({ force: true });
    await queue.close();
  });
});
