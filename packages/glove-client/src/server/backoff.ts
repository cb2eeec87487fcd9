/** How reconnects back off: first delay, cap, growth and jitter. */
export interface BackoffOptions {
  /** Delay before the first retry. Default 500 ms. */
  initialMs?: number | undefined;
  /** Upper bound. Default 30 s. */
  maxMs?: number | undefined;
  /** Growth per attempt. Default 2. */
  factor?: number | undefined;
  /** Random spread, as a fraction of the delay (0.2 = ±20 %), so many tabs do not retry in step. Default 0.2. */
  jitter?: number | undefined;
  /** Source of randomness (tests pin it). */
  random?: (() => number) | undefined;
}

/** The wait before retry number `attempt` (1-based): exponential, capped, with jitter. */
export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const { initialMs = 500, maxMs = 30_000, factor = 2, jitter = 0.2, random = Math.random } = options;
  const base = Math.min(maxMs, initialMs * factor ** Math.max(0, attempt - 1));
  const spread = base * jitter * (random() * 2 - 1);
  return Math.max(0, Math.round(Math.min(maxMs, base + spread)));
}
