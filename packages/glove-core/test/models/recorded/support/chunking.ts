/**
 * Ways to cut a recorded body into the pieces a client receives. A reader must give the same
 * result for every cut: providers, proxies and TCP split bodies anywhere, including inside a
 * UTF-8 character, between the two newlines ending an SSE event, or inside a binary frame.
 */
import fc from "fast-check";

/** Cuts a body into pieces whose concatenation is the body. */
export type Chunking = (body: Uint8Array) => Uint8Array[];

/** A named chunking, so a failing test says which cut broke it. */
export interface NamedChunking {
  name: string;
  cut: Chunking;
}

/** Splits `body` at the given byte offsets (sorted, deduplicated, out-of-range ones dropped). */
export function splitAt(body: Uint8Array, offsets: Iterable<number>): Uint8Array[] {
  const cuts = [...new Set(offsets)].filter((o) => o > 0 && o < body.length).sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const cut of cuts) {
    pieces.push(body.subarray(start, cut));
    start = cut;
  }
  pieces.push(body.subarray(start));
  return pieces;
}

/** The body in one piece. */
export const whole: Chunking = (body) => [body];

/** One byte per piece. */
export const byteByByte: Chunking = (body) => splitAt(body, body.keys());

/** A cut after the first byte of every multi-byte UTF-8 character (and after its second, if it has more). */
export const insideUtf8: Chunking = (body) => {
  const offsets: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const b = body[i]!;
    if (b >= 0xc0) offsets.push(i + 1, i + 2);
  }
  return splitAt(body, offsets);
};

/** A cut between the two line breaks that end each SSE event (`\n|\n`, `\r\n|\r\n`, `\r|\r`). */
export const betweenSseNewlines: Chunking = (body) => {
  const offsets: number[] = [];
  for (let i = 1; i < body.length; i++) {
    const prev = body[i - 1]!;
    const cur = body[i]!;
    if (prev === 0x0a && (cur === 0x0a || cur === 0x0d)) offsets.push(i);
    else if (prev === 0x0d && cur === 0x0d) offsets.push(i);
  }
  return splitAt(body, offsets);
};

/** Cuts at `count` offsets drawn from a seeded generator: the same seed gives the same cut. */
export function randomSplits(seed: number, count = 16): Chunking {
  return (body) => {
    let state = seed >>> 0 || 1;
    const offsets: number[] = [];
    for (let i = 0; i < count && body.length > 1; i++) {
      // xorshift32: deterministic, no dependency.
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      offsets.push(1 + ((state >>> 0) % (body.length - 1)));
    }
    return splitAt(body, offsets);
  };
}

/** The fixed chunkings every fixture test should run under. */
export const standardChunkings: NamedChunking[] = [
  { name: "whole", cut: whole },
  { name: "byte-by-byte", cut: byteByByte },
  { name: "inside UTF-8 characters", cut: insideUtf8 },
  { name: "between SSE newlines", cut: betweenSseNewlines },
  { name: "random (seed 1)", cut: randomSplits(1) },
  { name: "random (seed 42, 64 cuts)", cut: randomSplits(42, 64) },
];

/** fast-check: any set of cut offsets for a body of `length` bytes, as a Chunking. */
export function arbitraryChunking(length: number): fc.Arbitrary<NamedChunking> {
  return fc
    .uniqueArray(fc.integer({ min: 1, max: Math.max(1, length - 1) }), { maxLength: Math.min(64, length) })
    .map((offsets) => ({
      name: `at [${offsets.join(",")}]`,
      cut: (body: Uint8Array) => splitAt(body, offsets),
    }));
}
