import type { Message, NotifySubscribersFunction, ToolCall } from "../types/index.js";
import { isJsonObject } from "../models/shared/wire-shape.js";
import { checkToolCalls, checkToolUseEvent } from "./tool-call-checks.js";
import { boundedToolInput } from "./tool-input-depth.js";
import { copyRecord, mapPacked } from "./shapes.js";

/**
 * Makes every tool-call id unique and non-empty before anything sees it (and bounds the nesting
 * of call inputs on the way, see tool-input-depth.ts). Models send empty ids
 * (Gemini's ""), reuse ids across turns, or repeat one within a turn; results are paired with
 * calls by id, and providers reject a request whose ids repeat. One instance per model call:
 * `notify` rewrites `tool_use` and response events, `apply` the returned messages, consistently.
 */
export class ToolCallIds {
  private readonly streamed: Array<{ original: string | undefined; assigned: string; used: boolean }> = [];
  private finalIds: string[] | undefined;

  /** `model` names the adapter in the ProviderError for a malformed call (tool-call-checks.ts). */
  constructor(
    private readonly seen: Set<string>,
    private readonly model: string,
  ) {}

  /** Wraps the adapter's notify so subscribers only ever see the repaired ids (and only well-formed calls). */
  notify(inner: NotifySubscribersFunction): NotifySubscribersFunction {
    return ((type, data) => {
      if (type === "tool_use") {
        const event = checkToolUseEvent(data, this.model);
        // A non-string id counts as none, as in `assign`, so the event and the message get the same fresh id.
        const original = typeof event.id === "string" ? event.id : undefined;
        const assigned = this.fresh(original);
        this.streamed.push({ original, assigned, used: false });
        const input = boundedToolInput(event.input);
        return inner(type, assigned === event.id && input === event.input ? data : { ...data, id: assigned, input });
      }
      const payload: unknown = data;
      if ((type === "model_response_complete" || type === "model_response") && isJsonObject(payload)) {
        const calls = checkToolCalls(payload["tool_calls"], this.model, `the ${type} event's tool_calls`);
        if (calls) return inner(type, { ...data, tool_calls: this.relabel(calls) });
      }
      return inner(type, data);
    }) as NotifySubscribersFunction;
  }

  /** The response's messages (checked by tool-call-checks.ts) with the same ids the events announced. */
  apply(messages: Message[]): Message[] {
    const calls: ToolCall[] = [];
    for (const m of messages) if (m.tool_calls) for (const call of m.tool_calls) calls.push(call);
    if (calls.length === 0) return messages;
    const ids = this.assign(calls);
    let next = 0;
    return mapPacked(messages, (m) => {
      if (!m.tool_calls) return m;
      const copy = copyRecord(m);
      copy.tool_calls = mapPacked(m.tool_calls, (call) => this.relabelled(call, ids[next++]!));
      return copy;
    });
  }

  private relabel(calls: ToolCall[]): ToolCall[] {
    const ids = this.assign(calls);
    return mapPacked(calls, (call, i) => this.relabelled(call, ids[i]!));
  }

  /** `{ ...call, id, input_args }`, built so that every relabelled call shares one map (see shapes.ts). */
  private relabelled(call: ToolCall, id: string): ToolCall {
    const copy = copyRecord(call);
    copy.id = id;
    copy.input_args = boundedToolInput(call.input_args);
    return copy;
  }

  /** Ids for the response's final call list, computed once and shared by its event and its messages. */
  private assign(calls: ToolCall[]): string[] {
    if (this.finalIds && this.finalIds.length === calls.length) return this.finalIds;
    this.finalIds = mapPacked(calls, (call) => {
      const original = typeof call.id === "string" ? call.id : undefined;
      const match = this.streamed.find((entry) => !entry.used && entry.original === original);
      if (match) {
        match.used = true;
        return match.assigned;
      }
      return this.fresh(original);
    });
    return this.finalIds;
  }

  private fresh(original: string | undefined): string {
    if (typeof original === "string" && original !== "" && !this.seen.has(original)) {
      this.seen.add(original);
      return original;
    }
    let id: string;
    do id = `call_${crypto.randomUUID().replace(/-/g, "").slice(0, 20)}`;
    while (this.seen.has(id));
    this.seen.add(id);
    return id;
  }
}

/** Tool-call ids already used in a conversation, grown as the history grows. */
export class SeenToolCallIds {
  readonly ids = new Set<string>();
  private scanned = 0;
  private first: Message | undefined;

  /** Brings the set up to date with `messages` (the model's view), scanning only what is new. */
  update(messages: readonly Message[]): Set<string> {
    // A compaction or rebuild changes the view: start over.
    if (messages.length < this.scanned || messages[0] !== this.first) {
      this.ids.clear();
      this.scanned = 0;
      this.first = messages[0];
    }
    for (; this.scanned < messages.length; this.scanned++) {
      for (const call of messages[this.scanned]!.tool_calls ?? []) if (call.id) this.ids.add(call.id);
    }
    return this.ids;
  }
}
