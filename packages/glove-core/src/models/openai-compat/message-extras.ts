/**
 * Provider extras on the assistant message. Some providers attach state to the whole message that
 * must come back on the next turn: OpenRouter's `reasoning_details` (signed or encrypted reasoning
 * the upstream model needs to continue), Gemini's message-level `extra_content`. As with the
 * extras on tool calls (./call-extras.ts), nothing is named: every field the adapter does not read
 * itself is kept, merged across stream deltas, and sent back verbatim — to the provider that
 * produced it only (see history-encoder.ts).
 */
import { isJsonObject } from "../shared/wire-shape.js";
import { pickExtras, setField } from "./call-extras.js";

/**
 * Fields of a wire message or delta that are not extras: the ones the adapter reads or writes
 * (role, content, tool calls, refusal, reasoning text), and OpenAI's response-only fields, which
 * its own API refuses in a request (`annotations`, and `audio` whose request form is `{ id }`).
 */
const NOT_EXTRAS = new Set([
  "role",
  "content",
  "tool_calls",
  "refusal",
  "reasoning",
  "reasoning_content",
  "annotations",
  "audio",
]);

/** Keys naming a streamed detail rather than holding its text: equal on every delta, never joined. */
const DETAIL_IDENTITY = new Set(["type", "format", "id", "index"]);

/**
 * The extras of one wire message (or one delta of it), or undefined when it has none. Null and
 * empty lists or objects carry nothing (OpenRouter repeats `reasoning_details: []` on every delta).
 */
export function messageExtras(holder: Record<string, unknown>): Record<string, unknown> | undefined {
  return pickExtras(holder, NOT_EXTRAS, isEmpty);
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isJsonObject(value) && Object.keys(value).length === 0;
}

/**
 * `next` (a later delta's extras) merged into `into` (mutated). Objects merge key by key; arrays
 * extend, and an element carrying a numeric `index` joins the earlier element with the same
 * `index` and `type` (OpenRouter streams one reasoning detail as many pieces: their text joins,
 * their identity fields stay); anything else from the later delta replaces the earlier value.
 * With `joinPieces` false (two whole messages sent as one) lists only extend.
 */
export function mergeMessageExtras(
  into: Record<string, unknown>,
  next: Record<string, unknown>,
  joinPieces = true,
): Record<string, unknown> {
  for (const [key, value] of Object.entries(next)) {
    const prev = Object.hasOwn(into, key) ? into[key] : undefined;
    if (isJsonObject(prev) && isJsonObject(value))
      setField(into, key, mergeMessageExtras({ ...prev }, value, joinPieces));
    else if (Array.isArray(prev) && Array.isArray(value)) setField(into, key, mergeDetails(prev, value, joinPieces));
    else setField(into, key, value);
  }
  return into;
}

function mergeDetails(list: unknown[], more: unknown[], joinPieces: boolean): unknown[] {
  const out = [...list];
  for (const item of more) {
    const at =
      joinPieces && isJsonObject(item) && typeof item["index"] === "number"
        ? out.findIndex((e) => sameDetail(e, item))
        : -1;
    out[at < 0 ? out.length : at] =
      at < 0 ? item : joinDetail(out[at] as Record<string, unknown>, item as Record<string, unknown>);
  }
  return out;
}

function sameDetail(a: unknown, b: Record<string, unknown>): boolean {
  return isJsonObject(a) && a["index"] === b["index"] && a["type"] === b["type"];
}

/** Two pieces of one streamed detail: text fields join, identity fields and the rest take the later value. */
function joinDetail(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const prev = Object.hasOwn(out, key) ? out[key] : undefined;
    const joined =
      typeof prev === "string" && typeof value === "string" && !DETAIL_IDENTITY.has(key) ? prev + value : value;
    if (value !== null || prev === undefined) setField(out, key, joined);
  }
  return out;
}
