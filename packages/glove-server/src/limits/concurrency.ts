/** Counts requests in flight per principal, so one principal cannot hold every upstream connection. */
export class ConcurrencyLimiter {
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly perPrincipal: number) {}

  /** Takes a slot for `key`; returns its release function, or undefined when all slots are taken. */
  acquire(key: string): (() => void) | undefined {
    const count = this.inFlight.get(key) ?? 0;
    if (count >= this.perPrincipal) return undefined;
    this.inFlight.set(key, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inFlight.get(key) ?? 1) - 1;
      if (left <= 0) this.inFlight.delete(key);
      else this.inFlight.set(key, left);
    };
  }

  /** Requests in flight for `key` (for tests). */
  count(key: string): number {
    return this.inFlight.get(key) ?? 0;
  }
}
