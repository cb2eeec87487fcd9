/**
 * Provider extras on tool calls. Some providers hang state on a call that must come back
 * unchanged on the next turn (Gemini 3's `extra_content.google.thought_signature`: without it the
 * next request is a 400). Rather than knowing each such field, every wire field of a call except
 * the ones the adapter itself reads and writes is kept, merged across stream deltas, and sent
 * back verbatim.
 */
import { isJsonObject } from "../shared/wire-shape.js";
import type { ChatToolCall } from "./wire-types.js";

/** Fields of a wire tool call the adapter owns; `index` is stream bookkeeping, never sent back. */
const OWN_FIELDS = new Set(["id", "type", "index", "function"]);
const OWN_FUNCTION_FIELDS = new Set(["name", "arguments"]);

/**
 * The fields of `holder` not in `owned` and not `skip`ped, as a new record, or undefined when there
 * are none. Runs on every streamed delta, so it allocates only when it finds something.
 */
export function pickExtras(
  holder: Record<string, unknown>,
  owned: ReadonlySet<string>,
  skip: (value: unknown) => boolean = (value) => value === undefined,
): Record<string, unknown> | undefined {
  let extras: Record<string, unknown> | undefined;
  for (const key in holder) {
    if (!Object.hasOwn(holder, key) || owned.has(key)) continue;
    const value = holder[key];
    if (!skip(value)) setField((extras ??= {}), key, value);
  }
  return extras;
}

/** The extras of one wire tool call (or one delta of it), or undefined when it has none. */
export function callExtras(call: Record<string, unknown>): Record<string, unknown> | undefined {
  let extras = pickExtras(call, OWN_FIELDS);
  const fn = call["function"];
  const fnExtras = isJsonObject(fn) ? pickExtras(fn, OWN_FUNCTION_FIELDS) : undefined;
  if (fnExtras) setField((extras ??= {}), "function", fnExtras);
  return extras;
}

/**
 * `next` merged into `into` (mutated): objects merge key by key, anything else from a later
 * delta replaces the earlier value, as stream deltas are cumulative per field.
 */
export function mergeExtras(into: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(next)) {
    const prev = Object.hasOwn(into, key) ? into[key] : undefined;
    setField(into, key, isJsonObject(prev) && isJsonObject(value) ? mergeExtras({ ...prev }, value) : value);
  }
  return into;
}

/**
 * A tool call in wire form with its extras restored. The adapter's own fields win, so an extra
 * can never change the id, name or arguments the history holds.
 */
export function withExtras(
  extras: Record<string, unknown> | undefined,
  id: string,
  name: string,
  args: string,
): ChatToolCall {
  if (!extras) return { id, type: "function", function: { name, arguments: args } };
  const { function: fnExtras, ...rest } = extras;
  const fn = isJsonObject(fnExtras) ? fnExtras : {};
  return { ...rest, id, type: "function", function: { ...fn, name, arguments: args } };
}

/** Defines an own field, so a wire key such as `__proto__` stays data and never becomes a prototype. */
export function setField(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
