import type { LoopSession } from "./glove-loop.js";

/** Every request is one tool turn plus one text turn. */
export const CALLS_PER_REQUEST = 2;

export interface PerCall {
  /** User + system CPU, microseconds per model call. */
  cpuUs: number;
  /** Wall clock, microseconds per model call. */
  wallUs: number;
}

export interface MeasureOptions {
  /** Fresh sessions per measurement, all prepared (and warmed) before the timed region. */
  sessions: number;
  /** Timed requests per session; kept small so the conversation stays near its starting length. */
  requestsPerSession: number;
  /** Full GC before the timed region (needs node --expose-gc), so setup garbage is not billed to the loop. */
  gcBefore: boolean;
}

const gc = (globalThis as { gc?: () => void }).gc;
export const gcAvailable = typeof gc === "function";

/**
 * Prepares every session first (pre-populated history + one warm request, which
 * may load the history once), then times the following requests of all of them
 * in one contiguous region, so start-up transients (post-GC sweeping, cold
 * caches) are amortised over hundreds of calls. Returns microseconds per model call.
 */
export async function measure(prepare: () => Promise<LoopSession>, opts: MeasureOptions): Promise<PerCall> {
  const sessions: LoopSession[] = [];
  for (let i = 0; i < opts.sessions; i++) {
    const session = await prepare();
    await session.request();
    sessions.push(session);
  }
  if (opts.gcBefore) gc?.();
  const spare = await prepare(); // re-warm code and caches after the GC, untimed
  await spare.request();
  await spare.request();

  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (const session of sessions) {
    for (let r = 0; r < opts.requestsPerSession; r++) await session.request();
  }
  const wall = performance.now() - t0;
  const used = process.cpuUsage(c0);
  const calls = opts.sessions * opts.requestsPerSession * CALLS_PER_REQUEST;
  return { cpuUs: (used.user + used.system) / calls, wallUs: (wall * 1000) / calls };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
