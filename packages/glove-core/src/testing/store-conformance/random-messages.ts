/**
 * Random messages for the property case of the conformance suite, from a seeded generator (no
 * dependency, so the suite stays browser-safe and runner-agnostic; a failure names its seed).
 *
 * Each sample says whether a store must accept it and what it must read back. The oracle does not
 * reuse the stores' checks: a message is invalid exactly when the generator broke one of the
 * documented rules on purpose (a sender other than user/agent, a non-string text or id, a flag
 * that is not a boolean, a tool call without a name…) or when JSON cannot write it (a BigInt, a
 * cycle); an accepted message reads back as `JSON.parse(JSON.stringify(message))`.
 */

/** mulberry32: a small, fast, seeded PRNG. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws from a seeded sequence: numbers, integers below n, chances and picks. */
export class Seeded {
  readonly next: () => number;

  constructor(seed: number) {
    this.next = seededRandom(seed);
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}

export interface MessageSample {
  message: unknown;
  /** Whether every store must accept it. */
  valid: boolean;
  /** What a store reads back when it is valid: its JSON form. */
  expected?: unknown;
  /** The rule broken on purpose, for failure messages. */
  broken?: string;
}

/** Pieces random strings are made of: plain text, escapes JSON must write, NUL, lone and paired surrogates, combining marks. */
const PIECES = [
  "a",
  "Z",
  "0",
  " ",
  "é",
  "東京",
  "😀",
  "e\u0301",
  "\u0000",
  "\ud800",
  "\udfff",
  "\ud83d",
  "\n",
  "\r\n",
  "\t",
  '"',
  "\\",
  "\u2028",
  "\ufeff",
  "\u007f",
  "</script>",
  "{}",
  "null",
];
const KEYS = [
  "a",
  "b",
  "__proto__",
  "constructor",
  "toString",
  "",
  "0",
  "1e3",
  "k\u0000",
  "\ud800",
  "😀",
  "city",
  "status",
];
const SENDERS = ["user", "agent"];
const BAD_SENDERS: unknown[] = ["robot", "", "User", null, 1, undefined, ["user"]];
/** Values a flag may take, and whether a store must accept them. */
const FLAG_VALUES: Array<[unknown, boolean]> = [
  [true, true],
  [false, true],
  [undefined, true],
  [1, false],
  [0, false],
  ["yes", false],
  ["true", false],
  ["", false],
  [null, false],
  [{}, false],
];
const STATUSES = ["success", "error", "aborted"];
const PART_TYPES = ["text", "image", "document", "video", "audio", "x-custom"];

export class MessageGenerator {
  readonly #seeded: Seeded;

  constructor(seed: number) {
    this.#seeded = new Seeded(seed);
  }

  #random(): number {
    return this.#seeded.next();
  }

  #int(n: number): number {
    return this.#seeded.int(n);
  }

  #chance(p: number): boolean {
    return this.#seeded.chance(p);
  }

  #pick<T>(items: readonly T[]): T {
    return this.#seeded.pick(items);
  }

  string(max = 10): string {
    let out = "";
    const n = this.#int(max + 1);
    for (let i = 0; i < n; i++) out += this.#pick(PIECES);
    return out;
  }

  /** Free-form data: what tool arguments, results and render data may hold, JSON or not. */
  data(depth = 0): unknown {
    const roll = this.#int(depth > 2 ? 8 : 11);
    switch (roll) {
      case 0:
        return this.string();
      case 1:
        return this.#pick([
          0,
          -0,
          1,
          -1,
          1.5,
          1e300,
          -1e-300,
          Number.MAX_SAFE_INTEGER,
          2 ** 64,
          NaN,
          Infinity,
          -Infinity,
        ]);
      case 2:
        return this.#chance(0.5);
      case 3:
        return null;
      case 4:
        return undefined;
      case 5:
        return new Date(this.#int(2_000_000_000_000));
      case 6:
        return this.string(3);
      case 7:
        return this.#int(1000);
      case 8:
      case 9: {
        const out: Record<string, unknown> = {};
        const n = this.#int(4);
        for (let i = 0; i < n; i++) {
          Object.defineProperty(out, this.#pick(KEYS) + (this.#chance(0.3) ? this.string(2) : ""), {
            value: this.data(depth + 1),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        return out;
      }
      default:
        return Array.from({ length: this.#int(4) }, () => this.data(depth + 1));
    }
  }

  /** One message; about a third break a rule, a few cannot be written as JSON at all. */
  message(): MessageSample {
    const broken: string[] = [];
    const m: Record<string, unknown> = {};
    const sometimesBroken = (rule: string, p: number): boolean => {
      if (!this.#chance(p)) return false;
      broken.push(rule);
      return true;
    };

    m["sender"] = sometimesBroken("sender", 0.05) ? this.#pick(BAD_SENDERS) : this.#pick(SENDERS);
    m["text"] = sometimesBroken("text", 0.04) ? this.#pick<unknown>([5, null, undefined, ["a"], {}]) : this.string(16);
    for (const key of ["id", "pre_modified_text", "reasoning_content"]) {
      if (!this.#chance(0.3)) continue;
      m[key] = sometimesBroken(key, 0.1) ? this.#pick<unknown>([7, null, false, []]) : this.string();
    }
    for (const flag of ["is_compaction", "is_compaction_request", "is_skill_injection"]) {
      if (!this.#chance(0.35)) continue;
      const [value, ok] = this.#pick(FLAG_VALUES);
      if (!ok) broken.push(`${flag} = ${String(value)}`);
      m[flag] = value;
    }
    if (this.#chance(0.3)) {
      m["tool_calls"] = sometimesBroken("tool_calls", 0.05)
        ? this.#pick<unknown>([{}, "calls", 1])
        : Array.from({ length: this.#int(4) }, () => {
            const call: Record<string, unknown> = { input_args: this.data() };
            call["tool_name"] = sometimesBroken("tool_calls[].tool_name", 0.05)
              ? this.#pick<unknown>([undefined, 3, null])
              : this.string(6);
            if (this.#chance(0.7))
              call["id"] = sometimesBroken("tool_calls[].id", 0.05) ? this.#pick<unknown>([9, null]) : this.string(6);
            return sometimesBroken("tool_calls[] entry", 0.03) ? this.#pick<unknown>([null, "call", 4]) : call;
          });
    }
    if (this.#chance(0.2)) {
      m["tool_results"] = Array.from({ length: this.#int(3) }, () => {
        const result: Record<string, unknown> = { status: this.#pick(STATUSES), data: this.data() };
        if (this.#chance(0.4)) result["message"] = this.string();
        if (this.#chance(0.3)) result["renderData"] = this.data();
        if (sometimesBroken("tool_results[].result.status", 0.04))
          result["status"] = this.#pick<unknown>([undefined, 1, null]);
        const entry: Record<string, unknown> = { tool_name: this.string(6), result };
        if (this.#chance(0.7)) entry["call_id"] = this.string(6);
        if (sometimesBroken("tool_results[].result", 0.04))
          entry["result"] = this.#pick<unknown>(["done", null, undefined]);
        return entry;
      });
    }
    if (this.#chance(0.2)) {
      m["content"] = Array.from({ length: this.#int(3) }, () => {
        const part: Record<string, unknown> = { type: this.#pick(PART_TYPES) };
        if (this.#chance(0.5)) part["text"] = this.string();
        if (this.#chance(0.4)) part["source"] = { type: "url", media_type: "image/png", url: this.string() };
        if (sometimesBroken("content[].type", 0.04)) part["type"] = this.#pick<unknown>([undefined, 2]);
        return part;
      });
    }
    if (this.#chance(0.15)) m[this.#pick(["extra", "meta", "x_custom"])] = this.data();
    // Things JSON cannot write at all.
    const unwritable = this.#random();
    if (unwritable < 0.02) {
      m["meta"] = { big: BigInt(this.#int(100)) };
      broken.push("a BigInt");
    } else if (unwritable < 0.04) {
      const cycle: Record<string, unknown> = {};
      cycle["self"] = cycle;
      m["meta"] = cycle;
      broken.push("a cycle");
    }

    if (broken.length > 0) return { message: m, valid: false, broken: broken.join(", ") };
    return { message: m, valid: true, expected: JSON.parse(JSON.stringify(m)) as unknown };
  }
}
