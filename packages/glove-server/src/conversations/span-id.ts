import { randomBytes } from "node:crypto";

/** Span ids drawn from one buffer of random bytes: a `randomBytes(8)` call per span cost ~1 % of a streaming server's CPU. */
const POOL_BYTES = 8 * 512;
let pool = Buffer.alloc(0);
let at = 0;

/** A new 64-bit span id as 16 hex characters (as OpenTelemetry spells them), from a cryptographic source. */
export function newSpanId(): string {
  if (at + 8 > pool.length) {
    pool = randomBytes(POOL_BYTES);
    at = 0;
  }
  const id = pool.toString("hex", at, at + 8);
  at += 8;
  return id;
}
