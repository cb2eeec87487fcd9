import type { ModelCallAttempt, ToolCall } from "glove-core";

/**
 * One model call of a turn as the request inspector keeps it (decision 0055): the wire request
 * the adapter sent, stored as a reference to an earlier call's messages plus what differs, and the
 * answer as it read it. Secrets never reach it (glove-core redacts the wire request).
 */
export interface RecordedCall {
  callId: string;
  /** The turn's `chat` span of this call; absent for a compaction's summary call. */
  spanId?: string;
  /** "researcher" for a subagent's call, "planner/researcher" deeper; absent for the turn's own agent. */
  agentPath?: string;
  /** The adapter's name; the provider and model when the adapter reported its wire request. */
  adapter: string;
  provider?: string;
  model?: string;
  url?: string;
  headers?: Record<string, string>;
  compaction?: boolean;
  /** Epoch milliseconds. */
  startedAt: number;
  endedAt?: number;
  firstTokenAt?: number;
  attempts?: ModelCallAttempt[];
  /** How many of the conversation's messages (after compaction and hooks) the call was given. */
  contextMessages: number;
  request: RecordedRequest;
  answer?: RecordedAnswer;
  /** True when strings were cut to the per-string bound, or (past the per-turn bound) the request and answer were left out. */
  clipped?: boolean;
}

/**
 * A request: the body without its message list (`rest`: system, tools, options) and the list as
 * the first `keep` messages of the `base` call's list followed by `added`. The wire body is the
 * adapter's JSON; for an adapter that reports none, Glove's own messages stand in.
 */
export interface RecordedRequest {
  /** "wire": the provider's JSON body; "glove": Glove's request (a third-party adapter). */
  form: "wire" | "glove";
  /** The body's other fields as JSON text; absent when the same as the base call's. */
  rest?: string;
  sameRestAsBase?: boolean;
  /** A fingerprint of the rest, so a later call (a later turn's too) can tell it is the same without it. */
  restHash?: string;
  /** The body's field that holds the message list ("messages"), when it has one. */
  listKey?: string;
  base?: { turnId: string; callId: string };
  keep: number;
  added: unknown[];
  /** Messages in the whole list. */
  count: number;
  /** Fingerprints of the list's first n messages at its last few lengths: [n, hash]. */
  marks: Array<[number, string]>;
}

/** The answer as the adapter read it. */
export interface RecordedAnswer {
  text?: string;
  reasoning?: string;
  toolCalls?: ToolCall[];
  finishReason?: string;
  usage?: { tokens_in: number; tokens_out: number };
  error?: string;
}

/** A call's request made whole again from the calls it refers to. */
export interface ResolvedRequest {
  call: RecordedCall;
  /** The body as sent: `rest` with the message list put back. */
  body: unknown;
  /** Of the list's messages, how many came from earlier calls that are no longer stored (shown as null). */
  missing: number;
  /** The previous call of the same agent in the turn, and what changed since it. */
  previous?: RequestDiff;
}

/** What changed in the context from one call to the next: messages kept, dropped, added; the rest. */
export interface RequestDiff {
  callId: string;
  /** The list's first messages both calls share. */
  keptMessages: number;
  /** The previous call's messages after those (changed or removed: compaction, a hook, a moved cache marker). */
  removed: unknown[];
  /** This call's messages after those. */
  added: unknown[];
  /** The previous call's body without its message list, when it differs from this call's. */
  restBefore?: unknown;
}
