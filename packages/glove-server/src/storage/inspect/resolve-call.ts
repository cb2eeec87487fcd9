import type { RecordedCall, RequestDiff, ResolvedRequest } from "./recorded-calls.js";
import type { TurnTrace, TurnTraceStore } from "./types.js";

/** Calls a resolution follows at most (each a stored call; a chain crosses one turn per trace read). */
const MAX_CHAIN = 100_000;
/** Messages a recorded list may claim: more is not a conversation but a damaged or hostile row. */
const MAX_LIST = 1_000_000;

/**
 * Whether a stored value has the shape of a recorded call (a row may be damaged, or written by
 * something else): a call that does not is treated as not stored, never trusted.
 */
export function isRecordedCall(value: unknown): value is RecordedCall {
  if (typeof value !== "object" || value === null) return false;
  const call = value as Partial<RecordedCall>;
  const request = call.request as Partial<RecordedCall["request"]> | undefined;
  const count = (n: unknown) => typeof n === "number" && Number.isSafeInteger(n) && n >= 0 && n <= MAX_LIST;
  return (
    typeof call.callId === "string" &&
    typeof request === "object" &&
    request !== null &&
    count(request.keep) &&
    count(request.count) &&
    Array.isArray(request.added) &&
    (request.base === undefined ||
      (typeof request.base === "object" &&
        request.base !== null &&
        typeof request.base.turnId === "string" &&
        typeof request.base.callId === "string")) &&
    (request.rest === undefined || typeof request.rest === "string") &&
    (request.listKey === undefined || typeof request.listKey === "string")
  );
}

function storedCalls(trace: TurnTrace | undefined): RecordedCall[] {
  return Array.isArray(trace?.calls) ? trace.calls.filter(isRecordedCall) : [];
}

interface Whole {
  list: unknown[];
  rest: unknown;
  missing: number;
}

/**
 * A recorded call's request made whole again (decision 0055): its message list from the calls it
 * refers to — earlier turns' traces read as needed — and what changed since the previous call of
 * the same agent in the turn. Messages of calls no longer stored (older traces are pruned) come
 * back as null and are counted in `missing`. Undefined when the turn or call is not stored.
 */
export async function resolveRecordedCall(
  traces: TurnTraceStore,
  conversationId: string,
  turnId: string,
  callId: string,
): Promise<ResolvedRequest | undefined> {
  const cache = new Map<string, Promise<TurnTrace | undefined>>();
  const trace = (id: string) => {
    let found = cache.get(id);
    if (!found) cache.set(id, (found = traces.get(conversationId, id)));
    return found;
  };
  const calls = storedCalls(await trace(turnId));
  const index = calls.findIndex((c) => c.callId === callId);
  if (index < 0) return undefined;
  const call = calls[index]!;
  const whole = await wholeRequest(call, trace);
  const resolved: ResolvedRequest = { call, body: bodyOf(call, whole), missing: whole.missing };
  const previous = calls
    .slice(0, index)
    .reverse()
    .find((c) => (c.agentPath ?? "") === (call.agentPath ?? "") && !c.compaction && !call.compaction);
  if (previous) resolved.previous = diff(previous.callId, await wholeRequest(previous, trace), whole);
  return resolved;
}

/** The call's list and rest, following `base` references back through earlier calls. */
async function wholeRequest(
  call: RecordedCall,
  trace: (turnId: string) => Promise<TurnTrace | undefined>,
): Promise<Whole> {
  // The chain from this call back to the first that needs nothing before it.
  const chain: Array<RecordedCall | undefined> = [call];
  let need = call.request.count;
  let needRest = call.request.rest === undefined;
  for (let at = call; ;) {
    const fromBase = Math.min(need, at.request.keep);
    const base = at.request.base;
    if ((fromBase <= 0 && !needRest) || !base || chain.length >= MAX_CHAIN) break;
    const found = base.turnId ? storedCalls(await trace(base.turnId)).find((c) => c.callId === base.callId) : undefined;
    if (!found) {
      chain.push(undefined);
      break;
    }
    chain.push(found);
    need = fromBase;
    needRest = needRest && found.request.rest === undefined;
    at = found;
  }
  // Built forward from the oldest: each call keeps `keep` of what the one before it had.
  let list: unknown[] = [];
  let rest: unknown = undefined;
  for (let i = chain.length - 1; i >= 0; i--) {
    const at = chain[i];
    if (!at) continue;
    const keep = at.request.keep;
    const kept = list.slice(0, keep);
    while (kept.length < keep) kept.push(MISSING);
    list = [...kept, ...at.request.added];
    if (at.request.rest !== undefined) rest = parse(at.request.rest);
  }
  const missing = list.filter((m) => m === MISSING).length;
  return { list: missing ? list.map((m) => (m === MISSING ? null : m)) : list, rest, missing };
}

/** A message of a call no longer stored, until it is shown as null. */
const MISSING = Symbol("missing");

function bodyOf(call: RecordedCall, whole: Whole): unknown {
  const key = call.request.listKey;
  if (key === undefined) return whole.rest;
  const rest = whole.rest !== null && typeof whole.rest === "object" ? whole.rest : {};
  return { ...rest, [key]: whole.list };
}

function diff(callId: string, before: Whole, after: Whole): RequestDiff {
  let kept = 0;
  const shorter = Math.min(before.list.length, after.list.length);
  while (kept < shorter && JSON.stringify(before.list[kept]) === JSON.stringify(after.list[kept])) kept++;
  const out: RequestDiff = {
    callId,
    keptMessages: kept,
    removed: before.list.slice(kept),
    added: after.list.slice(kept),
  };
  if (JSON.stringify(before.rest) !== JSON.stringify(after.rest)) out.restBefore = before.rest;
  return out;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
