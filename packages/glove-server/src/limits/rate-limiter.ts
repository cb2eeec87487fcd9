/**
 * Per-principal token buckets: each principal may send `perMinute` requests at
 * once, and regains one every 60 000 / perMinute ms. In memory, so per process:
 * several server processes each allow the full rate (put a shared limiter in
 * front for a fleet).
 */
export interface RateDecision {
  allowed: boolean;
  /** When refused: whole seconds until a request would be allowed (at least 1). */
  retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/** How often idle buckets are dropped, so one-off principals do not pile up (ms). */
const SWEEP_INTERVAL_MS = 60_000;

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly refillPerMs: number;
  private lastSweep: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.refillPerMs = perMinute / 60_000;
    this.lastSweep = now();
  }

  /** Takes one request from `key`'s bucket, or says how long to wait. */
  take(key: string): RateDecision {
    const now = this.now();
    this.sweep(now);
    const bucket = this.buckets.get(key) ?? { tokens: this.perMinute, updatedAt: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.updatedAt) * this.refillPerMs);
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, retryAfterSeconds: 0 };
    }
    const waitMs = (1 - bucket.tokens) / this.refillPerMs;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  /** Principals currently tracked (for tests). */
  get size(): number {
    return this.buckets.size;
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    for (const [key, bucket] of this.buckets) {
      // A bucket that has refilled completely is the same as no bucket.
      if (bucket.tokens + (now - bucket.updatedAt) * this.refillPerMs >= this.perMinute) this.buckets.delete(key);
    }
  }
}
