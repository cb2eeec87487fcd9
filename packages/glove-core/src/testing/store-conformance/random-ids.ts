/**
 * Random ids for the id case of the conformance suite, from the seeded generator. The oracle is
 * built in: an id is made of pieces whose UTF-8 length is known and none of which can pair with
 * a neighbour into another character, so whether a store must keep it follows from the pieces
 * chosen (no NUL, no lone surrogate, at most 1024 UTF-8 bytes), not from the stores' checks.
 */
import { Seeded } from "./random-messages.js";

/** The longest key every store keeps, in UTF-8 bytes (docs/decisions/0020). */
export const KEY_BYTES = 1024;

/** Pieces a store keeps, with their UTF-8 length: ASCII, 2-, 3- and 4-byte characters, a combining sequence. */
const GOOD: ReadonlyArray<readonly [string, number]> = [
  ["a", 1],
  ["Z", 1],
  ["7", 1],
  ["-", 1],
  [":", 1],
  ["~", 1],
  [" ", 1],
  ["é", 2],
  ["ß", 2],
  ["東", 3],
  ["e\u0301", 3],
  ["\u2028", 3],
  ["\ufeff", 3],
  ["😀", 4],
  ["𝄞", 4],
];
/** Pieces no store keeps in a key; the surrogates sit next to "x", so they stay lone whatever surrounds them. */
const BAD: ReadonlyArray<readonly [string, string]> = [
  ["\u0000", "a NUL"],
  ["\ud800x", "a lone high surrogate"],
  ["x\udfff", "a lone low surrogate"],
];

export interface IdSample {
  id: string;
  /** UTF-8 length of `id` (of its valid pieces when it holds a bad one). */
  bytes: number;
  /** The character no store keeps, when the id holds one. */
  bad?: string;
}

/** Ids right at the limit, each byte width on both sides of it. */
export function boundaryIds(): IdSample[] {
  const ids: Array<[string, number]> = [
    ["a".repeat(KEY_BYTES), KEY_BYTES],
    ["a".repeat(KEY_BYTES + 1), KEY_BYTES + 1],
    ["é".repeat(KEY_BYTES / 2), KEY_BYTES],
    [`${"é".repeat(KEY_BYTES / 2)}a`, KEY_BYTES + 1],
    [`${"東".repeat(341)}a`, KEY_BYTES],
    ["東".repeat(342), KEY_BYTES + 2],
    ["😀".repeat(KEY_BYTES / 4), KEY_BYTES],
    [`${"😀".repeat(KEY_BYTES / 4)}a`, KEY_BYTES + 1],
  ];
  return ids.map(([id, bytes]) => ({ id, bytes }));
}

export class IdGenerator {
  readonly #r: Seeded;

  constructor(seed: number) {
    this.#r = new Seeded(seed);
  }

  /** An id: mostly short, a third near the limit (1016–1032 bytes), about a quarter holding a bad piece. */
  id(): IdSample {
    const goal = this.#r.next() < 0.33 ? KEY_BYTES - 8 + this.#r.int(17) : 1 + this.#r.int(24);
    let id = "";
    let bytes = 0;
    for (;;) {
      const [piece, size] = GOOD[this.#r.int(GOOD.length)]!;
      if (bytes + size > goal) break;
      id += piece;
      bytes += size;
    }
    id += "a".repeat(goal - bytes);
    bytes = goal;
    if (this.#r.next() >= 0.25) return { id, bytes };
    const [piece, bad] = BAD[this.#r.int(BAD.length)]!;
    const at = this.#r.int(id.length + 1);
    // Cut only between pieces' characters that cannot pair: never inside a surrogate pair.
    const cut = at > 0 && /[\ud800-\udbff]/.test(id[at - 1]!) ? at + 1 : at;
    return { id: id.slice(0, cut) + piece + id.slice(cut), bytes, bad };
  }
}
