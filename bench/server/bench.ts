/**
 * The server bench's measurements, independent of where the servers run: streaming rounds
 * (N conversations, one SSE client each, one long turn) and the idle-memory run.
 */
import { join } from "node:path";
import type { WireEvent } from "./bare-target.js";
import { BenchClient, pool, within } from "./client.js";
import type { ServerStats, Target } from "./targets.js";

const STEP_TIMEOUT_MS = 300_000;

export interface StreamSample {
  conversations: number;
  /** Turns measured (conversations × rounds). */
  turns: number;
  /** Frames received after the snapshots (every event of the turn, turn_end included). */
  events: number;
  textDeltas: number;
  wallMs: number;
  /** Server CPU over the turns (from the first POST to the last turn_end). */
  cpuUs: number;
  /** res.write calls and their characters on the server over the same span. */
  writes: number;
  writeBytes: number;
  /** Socket writes over the same span (node:http corks writes made in one tick into one). */
  flushes: number;
  /** Every stream saw the same number of frames. */
  uniform: boolean;
}

/** One conversation's turn as a client sees it: the events glove-server sends, to replay on the bare server. */
export async function captureTurn(target: Target): Promise<WireEvent[]> {
  const client = new BenchClient(target.url);
  try {
    const id = await client.createConversation("stream");
    const stream = client.openStream(id, true);
    await within(stream.snapshot, STEP_TIMEOUT_MS, "capture snapshot");
    await client.postMessage(id, "Go.");
    await within(stream.turnEnd, STEP_TIMEOUT_MS, "capture turn_end");
    stream.close();
    await client.deleteConversation(id);
    return stream.events;
  } finally {
    client.close();
  }
}

/** N fresh conversations, one SSE client each, one message each; measures the turns. */
export interface TimedHooks {
  /** Awaited just before the first POST. */
  before?(): Promise<void>;
  /** Awaited right after the last turn_end. */
  after?(): Promise<void>;
}

export async function streamRound(
  target: Target,
  conversations: number,
  hooks: TimedHooks = {},
): Promise<StreamSample> {
  const client = new BenchClient(target.url);
  try {
    const ids = await pool(Array.from({ length: conversations }), 50, () => client.createConversation("stream"));
    const streams = ids.map((id) => client.openStream(id));
    await within(
      Promise.all(streams.map((s) => s.snapshot)),
      STEP_TIMEOUT_MS,
      `${target.kind}: ${conversations} snapshots`,
    );
    await hooks.before?.();
    const before = await target.stats();
    const t0 = performance.now();
    await within(
      Promise.all(ids.map((id) => client.postMessage(id, "Go."))),
      STEP_TIMEOUT_MS,
      `${target.kind}: posting`,
    );
    await within(Promise.all(streams.map((s) => s.turnEnd)), STEP_TIMEOUT_MS, `${target.kind}: ${conversations} turns`);
    const wallMs = performance.now() - t0;
    const after = await target.stats();
    await hooks.after?.();
    for (const stream of streams) stream.close();
    await pool(ids, 50, (id) => client.deleteConversation(id));
    const events = streams.reduce((sum, s) => sum + s.frames, 0);
    return {
      conversations,
      turns: conversations,
      events,
      textDeltas: streams.reduce((sum, s) => sum + s.textDeltas, 0),
      wallMs,
      cpuUs: after.cpuUs - before.cpuUs,
      writes: after.writes - before.writes,
      writeBytes: after.bytes - before.bytes,
      flushes: after.flushes - before.flushes,
      uniform: streams.every((s) => s.frames === streams[0]!.frames),
    };
  } finally {
    client.close();
  }
}

/**
 * Frames per event-loop turn for the bare server so that a turn takes as many socket writes as
 * glove-server's did (one of which answers the POST).
 */
export function matchedBatch(glove: StreamSample): number {
  const streamWrites = Math.max(1, glove.flushes / glove.turns - 1);
  return Math.max(1, Math.round(glove.events / glove.turns / streamWrites));
}

export interface StreamCell {
  conversations: number;
  /** Rounds of N conversations per sample. */
  rounds: number;
  /** Frames per event-loop turn the bare server was given (median over the samples). */
  batch: number;
  glove: StreamSample;
  bare: StreamSample;
  /** Median of the per-repetition ratios of server CPU per event. */
  ratio: number;
  ratios: number[];
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** `rounds` rounds of N conversations, added up (small N needs several to measure anything). */
export async function streamRounds(
  target: Target,
  conversations: number,
  rounds: number,
  hooks: TimedHooks = {},
): Promise<StreamSample> {
  const samples: StreamSample[] = [];
  for (let r = 0; r < rounds; r++) {
    const first = r === 0 ? { before: hooks.before } : {};
    const last = r === rounds - 1 ? { after: hooks.after } : {};
    samples.push(await streamRound(target, conversations, { ...first, ...last }));
  }
  const sum = (pick: (s: StreamSample) => number) => samples.reduce((total, s) => total + pick(s), 0);
  return {
    conversations,
    turns: sum((s) => s.turns),
    events: sum((s) => s.events),
    textDeltas: sum((s) => s.textDeltas),
    wallMs: sum((s) => s.wallMs),
    cpuUs: sum((s) => s.cpuUs),
    writes: sum((s) => s.writes),
    writeBytes: sum((s) => s.writeBytes),
    flushes: sum((s) => s.flushes),
    uniform: samples.every((s) => s.uniform && s.events === samples[0]!.events),
  };
}

/** The median sample field by field (each field's own median). */
function medianSample(samples: StreamSample[]): StreamSample {
  const m = (pick: (s: StreamSample) => number) => median(samples.map(pick));
  return {
    conversations: samples[0]!.conversations,
    turns: samples[0]!.turns,
    events: m((s) => s.events),
    textDeltas: m((s) => s.textDeltas),
    wallMs: m((s) => s.wallMs),
    cpuUs: m((s) => s.cpuUs),
    writes: m((s) => s.writes),
    writeBytes: m((s) => s.writeBytes),
    flushes: m((s) => s.flushes),
    uniform: samples.every((s) => s.uniform),
  };
}

export interface StreamingOptions {
  sizes: number[];
  reps: number;
  /** Frames per socket write on the bare server: a number, or "match" glove-server's measured frames per socket write. */
  batch: number | "match";
  /** Profile one extra sample of glove-server per N (its timed part) into this folder. */
  profileDir?: string;
  /** Rounds per sample: at least enough for this many conversations (default 100), so small N is not all noise. */
  minConversations?: number;
  log?: (line: string) => void;
}

/**
 * For each N: a warm-up round on each server (glove's also measures its frames per socket write, which
 * the bare server is given when `batch` is "match"), then `reps` rounds alternating which goes first.
 */
export async function streamingBench(
  glove: Target,
  bare: Target,
  options: StreamingOptions,
): Promise<{ turn: WireEvent[]; cells: StreamCell[] }> {
  const turn = await captureTurn(glove);
  await bare.configure({ events: turn });
  const cells: StreamCell[] = [];
  for (const n of options.sizes) {
    const rounds = Math.max(1, Math.ceil((options.minConversations ?? 100) / n));
    const warm = await streamRounds(glove, n, rounds);
    // "match": re-derived from the latest glove sample before each bare one (its coalescing varies with load).
    let latest = warm;
    const batchFor = () => (options.batch === "match" ? matchedBatch(latest) : options.batch);
    const batches: number[] = [];
    await bare.configure({ batch: batchFor() });
    await streamRounds(bare, n, rounds);
    const samples: { glove: StreamSample[]; bare: StreamSample[] } = { glove: [], bare: [] };
    for (let rep = 0; rep < options.reps; rep++) {
      const order = rep % 2 ? [bare, glove] : [glove, bare];
      for (const target of order) {
        if (target === bare) {
          batches.push(batchFor());
          await bare.configure({ batch: batches.at(-1)! });
        }
        const sample = await streamRounds(target, n, rounds);
        if (target === glove) latest = sample;
        samples[target === glove ? "glove" : "bare"].push(sample);
        options.log?.(
          `  N=${n} rep ${rep + 1} ${target.kind}: ${sample.events} events, ${(sample.cpuUs / sample.events).toFixed(2)} µs CPU/event, ${(sample.events / Math.max(1, sample.writes)).toFixed(1)} frames/write, ${(sample.events / Math.max(1, sample.flushes)).toFixed(1)} frames/socket write, ${sample.wallMs.toFixed(0)} ms`,
        );
      }
    }
    if (options.profileDir) {
      const file = join(options.profileDir, `glove-server-N${n}.cpuprofile`);
      // From the first POST to the last turn_end (with several rounds, the setup between them too).
      await streamRounds(glove, n, rounds, {
        before: () => glove.profile("start"),
        after: () => glove.profile("stop", file),
      });
      options.log?.(`  profile of one more glove round: ${file}`);
    }
    const ratios = samples.glove.map((g, i) => g.cpuUs / g.events / (samples.bare[i]!.cpuUs / samples.bare[i]!.events));
    cells.push({
      conversations: n,
      rounds,
      batch: median(batches),
      glove: medianSample(samples.glove),
      bare: medianSample(samples.bare),
      ratio: median(ratios),
      ratios,
    });
  }
  return { turn, cells };
}

export interface MemoryResult {
  conversations: number;
  /** After warm-up conversations and a full GC. */
  base: ServerStats;
  /** After K more conversations (each: create, stream, one short turn, stream closed) and a full GC. */
  after: ServerStats;
  /** Waited for eviction (liveConversations 0) before `after`. */
  evicted: boolean;
  /** (after − base) / K, bytes. */
  heapPerConversation: number;
  rssPerConversation: number;
}

/** One conversation's life in the memory run. */
async function shortConversation(client: BenchClient, agent: string): Promise<void> {
  const id = await client.createConversation(agent);
  const stream = client.openStream(id);
  await within(stream.snapshot, STEP_TIMEOUT_MS, "memory: snapshot");
  await client.postMessage(id, "Remember that my favourite colour is green.");
  await within(stream.turnEnd, STEP_TIMEOUT_MS, "memory: turn_end");
  stream.close();
}

export interface MemoryOptions {
  conversations: number;
  /** Agent of the conversations: "short" (default) or "stream" (the long answer). */
  agent?: string;
  /** Wait until the server holds no conversation (its idleTimeoutMs must be small). */
  waitForEviction?: boolean;
  warmup?: number;
  evictionTimeoutMs?: number;
}

export async function memoryRun(target: Target, options: MemoryOptions): Promise<MemoryResult> {
  const client = new BenchClient(target.url);
  const agent = options.agent ?? "short";
  try {
    const warmup = options.warmup ?? Math.min(50, options.conversations);
    await pool(Array.from({ length: warmup }), 25, () => shortConversation(client, agent));
    if (options.waitForEviction) await untilEvicted(target, options.evictionTimeoutMs);
    const base = await target.collect();
    await pool(Array.from({ length: options.conversations }), 25, () => shortConversation(client, agent));
    if (options.waitForEviction) await untilEvicted(target, options.evictionTimeoutMs);
    const after = await target.collect();
    return {
      conversations: options.conversations,
      base,
      after,
      evicted: Boolean(options.waitForEviction),
      heapPerConversation: (after.heapUsed - base.heapUsed) / options.conversations,
      rssPerConversation: (after.rss - base.rss) / options.conversations,
    };
  } finally {
    client.close();
  }
}

async function untilEvicted(target: Target, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { live } = await target.stats();
    if (live === 0) return;
    if (Date.now() > deadline) throw new Error(`${live} conversations still live after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
