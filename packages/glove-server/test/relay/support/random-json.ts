/**
 * A small seeded generator of arbitrary JSON for property tests: deterministic
 * (a failure names its seed and case), biased towards what breaks parsers and
 * validators (prototype keys, odd numbers, unicode, wrong types in the right
 * places).
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** mulberry32: tiny, fast, good enough for test data. */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }
}

const KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "messages",
  "model",
  "tools",
  "sender",
  "text",
  "maxTokens",
  "",
  "é",
  "🔥",
  "a.b",
  "0",
];
const STRINGS = [
  "",
  "user",
  "agent",
  "small-model",
  "big-model",
  "\u0000",
  "\ud800",
  "🔥".repeat(3),
  "<script>",
  "x".repeat(300),
  "null",
  "[DONE]",
  "\n\nevent: result\ndata: {}",
];
const NUMBERS = [0, -1, 1, 1.5, 1e308, -1e308, 2 ** 53 + 1, 4096, 4097, 1e-7];

export function randomJson(r: Random, depth = 4): Json {
  const kind = depth <= 0 ? r.int(4) : r.int(6);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return r.chance(0.5);
    case 2:
      return r.chance(0.7) ? r.pick(NUMBERS) : (r.next() - 0.5) * 10 ** r.int(12);
    case 3:
      return r.chance(0.7) ? r.pick(STRINGS) : randomString(r);
    case 4:
      return Array.from({ length: r.int(5) }, () => randomJson(r, depth - 1));
    default: {
      const out: { [key: string]: Json } = {};
      for (let i = r.int(5); i > 0; i--) out[r.chance(0.6) ? r.pick(KEYS) : randomString(r)] = randomJson(r, depth - 1);
      return out;
    }
  }
}

function randomString(r: Random): string {
  let s = "";
  for (let i = r.int(12); i > 0; i--) s += String.fromCodePoint(r.chance(0.8) ? 32 + r.int(95) : r.int(0x2ffff));
  return s;
}

/** A valid relay body (with arbitrary content where any is allowed, when `wild`), which `mutate` may then break. */
export function validBody(r: Random, wild = false): { [key: string]: Json } {
  const text = () => (wild ? randomString(r) : "hi");
  const messages: Json[] = [{ sender: "user", text: text() }];
  if (r.chance(0.5)) {
    const args = wild ? randomJson(r, 4) : { a: 1 };
    const agent: { [key: string]: Json } = {
      sender: "agent",
      text: text(),
      tool_calls: [{ tool_name: "t", input_args: args, id: "c1" }],
    };
    if (r.chance(0.5)) {
      // What a provider needs to continue its turns: free-form extras, signed reasoning, a refusal mark.
      agent["provider"] = wild ? randomString(r) : "anthropic";
      agent["provider_extras"] = wild ? { [randomString(r)]: randomJson(r, 3) } : { vendor: 1 };
      agent["reasoning_blocks"] = [
        { type: "thinking", text: text(), signature: "c2ln", provider: "anthropic" },
        { type: "redacted_thinking", data: "b3A=" },
      ];
      agent["is_refusal"] = r.chance(0.5);
    }
    messages.push(agent);
    messages.push({
      sender: "user",
      text: "",
      tool_results: [{ tool_name: "t", call_id: "c1", result: { status: "success", data: randomJson(r, 2) } }],
    });
  }
  const body: { [key: string]: Json } = { messages };
  if (r.chance(0.5)) body["model"] = r.pick(["small-model", "big-model"]);
  if (r.chance(0.5)) {
    const properties = wild ? { [randomString(r)]: randomJson(r, 3) } : {};
    body["tools"] = [{ name: "t", description: text(), parameters: { type: "object", properties } }];
  }
  if (r.chance(0.5)) body["maxTokens"] = r.pick([1, 100, 100_000]);
  if (r.chance(0.3)) body["systemPrompt"] = wild ? randomString(r) : "Be brief.";
  if (r.chance(0.3))
    body["output"] = { name: "answer", schema: wild ? { [randomString(r)]: randomJson(r, 3) } : { type: "object" } };
  if (wild && r.chance(0.5)) body[r.pick(KEYS)] = randomJson(r, 3);
  return body;
}

/** Replaces (or deletes) one randomly chosen value somewhere inside `value`. */
export function mutate(r: Random, value: Json): Json {
  if (value === null || typeof value !== "object" || r.chance(0.25)) return randomJson(r, 3);
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  if (keys.length === 0) return randomJson(r, 3);
  const copy: Json[] | { [key: string]: Json } = Array.isArray(value) ? [...value] : { ...value };
  const key = r.pick(keys as Array<string | number>);
  const target = copy as Record<string | number, Json>;
  if (r.chance(0.2) && !Array.isArray(copy)) delete target[key];
  else target[key] = mutate(r, target[key] as Json);
  return copy;
}
