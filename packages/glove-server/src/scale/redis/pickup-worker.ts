import type { Job } from "bullmq";
import { Worker } from "./drivers.js";

/** Fetches in flight at most while a burst drains (each one `moveToActive` call, pipelined on one connection). */
export const MAX_PARALLEL_FETCHES = 64;
/** Pause after a failed fetch (Redis away): ioredis queues commands meanwhile, so this only paces errors. */
const FETCH_RETRY_MS = 1000;

/**
 * A BullMQ Worker whose pickup does not serialise (decision 0039). BullMQ's own loop fetches one
 * job per round trip until it holds `concurrency` jobs and starts none before that: under a burst
 * the first turn waited for up to `concurrency` sequential `moveToActive` calls on a busy event
 * loop. This loop starts every job as soon as its fetch returns, and while fetches keep finding
 * jobs it sends the next batch twice as wide (1, 2, 4 … up to MAX_PARALLEL_FETCHES, never past the
 * free slots), all in one round trip. A fetch that finds nothing drops back to one blocking fetch on
 * BullMQ's marker: empty fetches happen once per burst (at most the last batch's width), not per job.
 *
 * Everything else is BullMQ's: `processJob` (lock tracking and renewal by the lock manager,
 * completion or failure with the job's token, the next job taken with the completion), the stalled
 * checker, `close()` (which waits for this loop, and so for every running job).
 */
export class PickupWorker<Data> extends Worker<Data> {
  /** Jobs being processed (including the next jobs their completions took). */
  #active = 0;
  /** Fetches in flight. */
  #fetching = 0;
  #width = 1;
  #token = 0;
  readonly #processing = new Set<Promise<void>>();
  #slotFreed: (() => void) | undefined;

  override async run(): Promise<void> {
    if (!this.processFn) throw new Error("No process function is defined.");
    if (this.running) throw new Error("Worker is already running.");
    try {
      this.running = true;
      if (this.closing || this.paused) return;
      await this.startStalledCheckTimer();
      if (!this.opts.skipLockRenewal) this.lockManager.start();
      this.mainLoopRunning = this.#pickup();
      await this.mainLoopRunning;
    } finally {
      this.running = false;
    }
  }

  /** Jobs running on this worker now (for tests and metrics). */
  get activeCount(): number {
    return this.#active;
  }

  async #pickup(): Promise<void> {
    while (!this.closing && !this.paused) {
      const free = this.concurrency - this.#active;
      if (free <= 0) {
        await new Promise<void>((resolve) => (this.#slotFreed = resolve));
        continue;
      }
      const width = Math.min(free, this.#width);
      // The first fetch of a batch may block on the queue's marker (BullMQ blocks only when the
      // last fetch found the queue drained, and only one fetch at a time); the others never block.
      const batch = Array.from({ length: width }, (_, i) => this.#fetch(i === 0));
      const jobs = await Promise.all(batch);
      const found = jobs.filter((job) => job !== undefined).length;
      this.#width = found === width ? Math.min(width * 2, MAX_PARALLEL_FETCHES) : 1;
    }
    while (this.#processing.size > 0) await Promise.all([...this.#processing]);
  }

  /** One fetch; its job (if any) starts before the rest of the batch returns. */
  async #fetch(block: boolean): Promise<Job<Data> | undefined> {
    const token = `${this.id}:p${this.#token++}`;
    this.#fetching++;
    let job: Job<Data> | undefined;
    try {
      job = await this.getNextJob(token, { block });
    } catch (error) {
      if (!this.closing) {
        this.emit("error", error as Error);
        await new Promise((resolve) => setTimeout(resolve, FETCH_RETRY_MS).unref());
      }
    } finally {
      this.#fetching--;
    }
    if (job) this.#start(job, token);
    return job;
  }

  /** Processes `job` and then every job its completion takes (BullMQ's fetch-next), in one slot. */
  #start(first: Job<Data>, token: string): void {
    this.#active++;
    const run = (async () => {
      let job: Job<Data> | void = first;
      // A completion takes the next job only while no slot would be over-booked by fetches in flight.
      while (job)
        job = await this.processJob(job, job.token ?? token, () => this.#active + this.#fetching <= this.concurrency);
    })()
      .catch((error: unknown) => void this.emit("error", error as Error))
      .finally(() => {
        this.#active--;
        this.#processing.delete(run);
        const wake = this.#slotFreed;
        this.#slotFreed = undefined;
        wake?.();
      });
    this.#processing.add(run);
  }
}
