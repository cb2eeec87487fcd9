import type { Message, ToolCall, ToolResultData } from "./message.js";

/** Tokens in and out, for one model call or added up over a conversation. */
export interface TokenConsumptionCounter {
  tokens_in: number;
  tokens_out: number;
}

/** Where an event came from when a subagent emitted it (absent on the agent's own events). */
export interface EventOrigin {
  /**
   * The subagents that emitted it, outermost first, as seen from the Glove you subscribed to:
   * `["researcher"]` for its subagent's events, `["planner", "researcher"]` one level deeper.
   */
  agentPath?: readonly string[];
}

/** Every event the runtime and model adapters emit, discriminated by `type`. */
export type SubscriberEvent = EventOrigin &
  (
    | { type: "text_delta"; text: string }
    | { type: "tool_use"; id: string; name: string; input: unknown }
    | {
        type: "model_response";
        text: string;
        tool_calls?: ToolCall[];
        stop_reason?: string;
        tokens_in?: number;
        tokens_out?: number;
      }
    | {
        type: "model_response_complete";
        text: string;
        tool_calls?: ToolCall[];
        stop_reason?: string;
        tokens_in?: number;
        tokens_out?: number;
      }
    | { type: "tool_use_result"; tool_name: string; call_id?: string; result: ToolResultData }
    /**
     * A permission prompt opened and no display listener will show it: the tool waits until
     * someone answers the slot. `message` says how (also logged with console.warn).
     */
    | { type: "permission_waiting"; tool_name: string; call_id?: string; slot_id?: string; message: string }
    /**
     * A turn that waited for a person goes on: a stored question was answered (`resolveSlot`) and
     * the call that asked runs again, meeting its recorded answers.
     */
    | { type: "turn_resumed"; slot_id: string; call_id: string; tool_name: string }
    /**
     * A model call failed in a way worth another try (rate limit, server error, lost connection,
     * an overloaded answer in the body): the adapter waits `delay_ms`, then makes retry number
     * `attempt` (1 for the first). `status` is the HTTP status (0 when none came), `code` the
     * provider's error code when it sent one, `reason` its message (at most 200 characters).
     */
    | {
        type: "model_retry";
        provider: string;
        attempt: number;
        delay_ms: number;
        status: number;
        code?: string;
        reason: string;
      }
    /** The provider refused to answer; `text` is its stated refusal (also the agent message's text). */
    | { type: "model_refusal"; text: string }
    | { type: "compaction_start"; current_token_consumption: number }
    | { type: "compaction_end"; current_token_consumption: number; summary_message: Message }
    | { type: "token_consumption"; consumption: TokenConsumptionCounter }
    | { type: "hook_invoked"; name: string }
    | { type: "skill_invoked"; name: string; source: "user" | "agent"; args?: string }
    | { type: "subagent_invoked"; name: string; prompt: string }
    | { type: "subagent_completed"; name: string; status: "success" | "error"; message?: string }
  );

/** The name of any event a subscriber can receive. */
export type SubscriberEventType = SubscriberEvent["type"];

/** The payload of each event: everything but `type`. */
export type SubscriberEventDataMap = {
  [E in SubscriberEvent as E["type"]]: Omit<E, "type">;
};

/**
 * The arguments of `record`: an event's type, then its data. A union of tuples (not a generic) so
 * that checking the type narrows the data: `if (type === "text_delta") data.text`.
 */
export type SubscriberEventArgs = {
  [T in SubscriberEventType]: [event_type: T, data: SubscriberEventDataMap[T]];
}[SubscriberEventType];

/** `record` as the runtime calls it: an event's type and its data. */
export type SubscriberRecordCall = (...event: SubscriberEventArgs) => Promise<void> | void;

/**
 * What `record` may be: `(type, data) => …`, whose data narrows on the type; `(type) => …` or
 * `() => …` for subscribers that need less; or a function written for the generic shape
 * `<T>(type: T, data: SubscriberEventDataMap[T])`.
 *
 * Two members because one cannot do it: TypeScript does not let a function with fewer parameters
 * stand for one whose rest parameter is a union of tuples (it compares `[type]` with each
 * `[type, data]` and finds it too short), so `(type) => …` would be refused by
 * SubscriberRecordCall alone. The second member takes it: a method signature (its parameters are
 * compared both ways) whose extra `[type, ...never[]]` admits one parameter. An unannotated
 * `(type, data) => …` gets the same parameter types from either member (the never-typed rest adds
 * nothing), so `data` narrows; `(...event) => …` gets the first member's, SubscriberEventArgs —
 * first because the second is made from it, and a union lists its members in the order they were
 * made. The price of the method signature: as for any method, a function typed for some events
 * only (`(type: "text_delta", data: { text: string }) => …`) is accepted too.
 */
export type SubscriberRecord = SubscriberRecordCall | FewerParameters<SubscriberRecordCall>["record"];

interface FewerParameters<Call extends SubscriberRecordCall> {
  record(...event: Parameters<Call> | [event_type: SubscriberEventType, ...nothing: never[]]): ReturnType<Call>;
}

/**
 * Receives events. Implementations may be async; the runtime awaits each call in order. A
 * synchronous `record` (returning nothing) is delivered without a promise per event.
 */
export interface SubscriberAdapter {
  record: SubscriberRecord;
}

/** Type-safe event emitter handed to model adapters. */
export type NotifySubscribersFunction = <T extends SubscriberEventType>(
  event_name: T,
  data: SubscriberEventDataMap[T],
) => Promise<void>;
