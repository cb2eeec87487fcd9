import { createHash } from "node:crypto";
import type { ModelCallEvent, ModelCallRequest, ModelWireRequest } from "glove-core";
import type { RecordedCall, RecordedRequest } from "../storage/inspect/recorded-calls.js";
import type { TurnTrace } from "../storage/inspect/types.js";

/** A string longer than this is cut in a recorded call (a 1 MB tool result is not kept whole per call). */
export const RECORDED_STRING_CHARS = 32_000;
/** Prefix lengths a call keeps fingerprints of, counting back from its list's end. */
const MARKS = 4;

/** Where the next call's list is looked for: the conversation's last recorded call of the same agent. */
export interface PreviousCall {
  turnId: string;
  call: RecordedCall;
}

interface Pending {
  call: RecordedCall;
  request: ModelCallRequest;
  wire?: ModelWireRequest;
  compacted?: boolean;
}

/**
 * The request log of one turn (decision 0055): each model call's request as a reference to the
 * previous call's message list (by fingerprints of its prefixes) plus the messages that differ,
 * so what a turn stores does not grow with the conversation. The answer is kept as the adapter
 * read it, strings cut at RECORDED_STRING_CHARS.
 */
export class RequestLog {
  readonly #calls: RecordedCall[];
  readonly #pending = new Map<string, Pending>();
  /** Per agent path: the last call whose list the next one refers to. */
  readonly #last = new Map<string, PreviousCall>();
  #before: Promise<PreviousCall | undefined> | undefined;

  constructor(
    private readonly turnId: string,
    continues: TurnTrace | undefined,
    /** Reads the conversation's last call before this turn (its own agent's), when one is stored. */
    private readonly previous: () => Promise<PreviousCall | undefined>,
  ) {
    this.#calls = continues?.calls ? [...continues.calls] : [];
    for (const call of this.#calls) this.#last.set(call.agentPath ?? "", { turnId, call });
  }

  /** Notes an event; returns the call it is about when that call is new (for the recorder's span). */
  observe(event: ModelCallEvent): RecordedCall | undefined {
    const agentPath = event.agentPath?.length ? event.agentPath.join("/") : undefined;
    if (event.phase === "request") {
      if (this.#pending.has(event.callId)) return undefined;
      const call: RecordedCall = {
        callId: event.callId,
        adapter: event.adapter,
        startedAt: event.startedAt,
        contextMessages: event.messages.length,
        request: { form: "glove", keep: 0, added: [], count: 0, marks: [] },
        ...(agentPath !== undefined ? { agentPath } : {}),
        ...(event.compaction ? { compaction: true } : {}),
      };
      this.#calls.push(call);
      this.#pending.set(event.callId, { call, request: event });
      return call;
    }
    const pending = this.#pending.get(event.callId);
    if (!pending) return undefined;
    if (event.phase === "wire") {
      pending.wire = event.wire;
      pending.call.provider = event.wire.provider;
      pending.call.model = event.wire.model;
      pending.call.url = event.wire.url;
      pending.call.headers = event.wire.headers;
      return undefined;
    }
    const call = pending.call;
    call.endedAt = event.endedAt;
    if (event.firstTokenAt !== undefined) call.firstTokenAt = event.firstTokenAt;
    call.attempts = event.attempts.map((a) => (a.cause ? { ...a, cause: clip(a.cause, 500) } : a));
    const message = event.messages?.[0];
    const answer: NonNullable<RecordedCall["answer"]> = {};
    if (message?.text) answer.text = message.text;
    if (message?.reasoning_content) answer.reasoning = message.reasoning_content;
    if (event.toolCalls?.length) answer.toolCalls = [...event.toolCalls];
    if (event.finishReason) answer.finishReason = event.finishReason;
    if (event.usage) answer.usage = event.usage;
    if (event.error) answer.error = event.error;
    call.answer = clipped(answer, call);
    return undefined;
  }

  /** Links a call to its chat span. */
  spanOf(callId: string, spanId: string): void {
    const pending = this.#pending.get(callId);
    if (pending) pending.call.spanId = spanId;
  }

  /** The calls so far, each request made compact once (needs the previous turn's last call, read once). */
  async settle(): Promise<RecordedCall[]> {
    if (this.#pending.size > 0) {
      // Read once, when the turn's first call is saved (a turn without calls reads nothing).
      const before = await (this.#before ??= this.previous().catch(() => undefined));
      for (const [callId, pending] of [...this.#pending]) {
        // Its wire request may still come (an adapter reports it once its body is built).
        if (!pending.wire && pending.call.endedAt === undefined) continue;
        if (!pending.compacted) {
          const key = pending.call.agentPath ?? "";
          const base = this.#last.get(key) ?? (key === "" ? before : undefined);
          pending.call.request = compactRequest(pending, base, this.turnId);
          pending.compacted = true;
          // Compaction's summary call is a side request: the agent's next call refers past it.
          if (!pending.call.compaction) this.#last.set(key, { turnId: this.turnId, call: pending.call });
        }
        if (pending.call.endedAt !== undefined) this.#pending.delete(callId);
      }
    }
    return this.#calls;
  }
}

/** The call's request: its list as the base call's first `keep` messages plus the rest. */
function compactRequest(pending: Pending, base: PreviousCall | undefined, turnId: string): RecordedRequest {
  const { form, rest, listKey, list } = split(pending);
  const hashes = prefixHashes(list);
  let keep = 0;
  for (const [n, hash] of base?.call.request.marks ?? []) {
    if (n <= list.length && n > keep && hashes[n - 1] === hash) keep = n;
  }
  const marks: Array<[number, string]> = [];
  for (let n = list.length; n >= 1 && marks.length < MARKS; n--) marks.push([n, hashes[n - 1]!]);
  const restHash = hashOf(rest);
  // Within the turn only: each turn keeps its system prompt and tools once, so they survive older turns being pruned.
  const sameRest =
    base !== undefined &&
    base.turnId === turnId &&
    base.call.request.form === form &&
    base.call.request.restHash === restHash;
  const request: RecordedRequest = {
    form,
    keep,
    added: list.slice(keep).map((m) => clipValue(m, pending.call)),
    count: list.length,
    marks,
    restHash,
    ...(listKey !== undefined ? { listKey } : {}),
  };
  if (keep > 0 && base) request.base = { turnId: base.turnId, callId: base.call.callId };
  if (sameRest && base) {
    request.sameRestAsBase = true;
    request.base ??= { turnId: base.turnId, callId: base.call.callId };
  } else request.rest = clip(rest, RECORDED_STRING_CHARS * 4, pending.call);
  return request;
}

function hashOf(text: string): string {
  return createHash("sha256").update(text).digest("base64url").slice(0, 22);
}

/** The wire body's message list and the rest of it; Glove's own request when the adapter reported none. */
function split(pending: Pending): { form: "wire" | "glove"; rest: string; listKey?: string; list: unknown[] } {
  if (pending.wire) {
    let body: unknown;
    try {
      body = JSON.parse(pending.wire.body);
    } catch {
      return { form: "wire", rest: pending.wire.body, list: [] };
    }
    if (body !== null && typeof body === "object" && Array.isArray((body as { messages?: unknown }).messages)) {
      const { messages, ...rest } = body as { messages: unknown[] };
      return { form: "wire", rest: JSON.stringify(rest), listKey: "messages", list: messages };
    }
    return { form: "wire", rest: pending.wire.body, list: [] };
  }
  const { systemPrompt, toolNames, messages } = pending.request;
  return { form: "glove", rest: JSON.stringify({ systemPrompt, toolNames }), listKey: "messages", list: [...messages] };
}

/** hashes[i] fingerprints the list's first i + 1 messages. */
function prefixHashes(list: readonly unknown[]): string[] {
  const out: string[] = [];
  let previous = "";
  for (const item of list) {
    previous = createHash("sha256")
      .update(previous)
      .update(JSON.stringify(item) ?? "null")
      .digest("base64url")
      .slice(0, 22);
    out.push(previous);
  }
  return out;
}

function clip(text: string, max: number, call?: RecordedCall): string {
  if (text.length <= max) return text;
  if (call) call.clipped = true;
  return `${text.slice(0, max)}… [${text.length - max} more characters not recorded]`;
}

/** A JSON value with every string over RECORDED_STRING_CHARS cut. */
function clipValue(value: unknown, call: RecordedCall): unknown {
  if (typeof value === "string") return clip(value, RECORDED_STRING_CHARS, call);
  if (Array.isArray(value)) return value.map((v) => clipValue(v, call));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = clipValue(v, call);
    return out;
  }
  return value;
}

function clipped<T>(value: T, call: RecordedCall): T {
  return clipValue(value, call) as T;
}

/** The conversation's last recorded call of its own agent before `turnId`, from the newest stored traces. */
export async function previousCall(
  store: { list(conversationId: string, page: { limit: number }): Promise<TurnTrace[]> },
  conversationId: string,
  turnId: string,
): Promise<PreviousCall | undefined> {
  for (const trace of await store.list(conversationId, { limit: 3 })) {
    if (trace.turnId === turnId || !trace.calls) continue;
    for (let i = trace.calls.length - 1; i >= 0; i--) {
      const call = trace.calls[i]!;
      if (call.agentPath === undefined && !call.compaction && call.request.marks.length > 0)
        return { turnId: trace.turnId, call };
    }
  }
  return undefined;
}
