import type { Message, ToolCall } from "./message.js";

/**
 * The request of one model call as it went out: what Glove asked for (the messages after
 * compaction and hooks, the system prompt as built, the tools) and, when the adapter is one of
 * glove-core's HTTP adapters, the exact wire request it sent (secrets redacted).
 */
export interface ModelCallRequest {
  phase: "request";
  /** Unique within the process; the answer of the same call carries it too. */
  callId: string;
  /** The subagents that made the call, outermost first; absent for the agent's own calls. */
  agentPath?: readonly string[];
  /** The adapter's name (e.g. "anthropic", "openai"). */
  adapter: string;
  /** Epoch milliseconds when the call was handed to the adapter. */
  startedAt: number;
  /** What Glove asked the adapter for. */
  systemPrompt: string;
  /** The messages the adapter was given (the list as it was for this call; the messages themselves are shared: do not change them). */
  messages: readonly Message[];
  /** Names of the tools offered. */
  toolNames: readonly string[];
  /** True for a compaction's summary call (not a step of the turn). */
  compaction?: boolean;
}

/** What one HTTP adapter put on the wire for a call, secrets redacted. */
export interface ModelWireRequest {
  /** The provider id (e.g. "anthropic", "openai", "bedrock"). */
  provider: string;
  model: string;
  /** The URL, with any key in its query string redacted. */
  url: string;
  /** The headers that say something about the request (version, beta flags); secret ones show "[redacted]". */
  headers: Record<string, string>;
  /** The request body exactly as sent (JSON text), every secret the adapter sends replaced by "[redacted]". */
  body: string;
}

/** One HTTP attempt of a model call: the first, and each retry. */
export interface ModelCallAttempt {
  /** 0 for the first request, 1 for the first retry… */
  attempt: number;
  /** Epoch milliseconds. */
  startMs: number;
  endMs: number;
  outcome: "ok" | "retried" | "failed";
  /** For a retried attempt: the HTTP status (0 when none came), the provider's code and message. */
  status?: number;
  cause?: string;
  /** The wait before the next attempt. */
  delayMs?: number;
}

/** The answer of one model call, as the adapter read it. */
export interface ModelCallAnswer {
  phase: "answer";
  callId: string;
  agentPath?: readonly string[];
  /** Epoch milliseconds when the answer was complete (or the call failed). */
  endedAt: number;
  /** Epoch milliseconds of the first streamed text or tool call; absent when nothing streamed. */
  firstTokenAt?: number;
  attempts: ModelCallAttempt[];
  /** The answer's messages (text, reasoning, tool calls with their arguments); absent when it failed. */
  messages?: readonly Message[];
  toolCalls?: readonly ToolCall[];
  finishReason?: string;
  usage?: { tokens_in: number; tokens_out: number };
  /** Set when the call failed: the error's name and message. */
  error?: string;
}

/** The exact wire request of a call, reported by the adapter once it built it (glove-core's HTTP adapters do). */
export interface ModelCallWire {
  phase: "wire";
  callId: string;
  agentPath?: readonly string[];
  wire: ModelWireRequest;
}

/**
 * What a model call observer is told: each call's request when it starts, the wire request when
 * the adapter built it, the answer when it ends.
 */
export type ModelCallEvent = ModelCallRequest | ModelCallWire | ModelCallAnswer;

/**
 * Sees every model call a Glove makes (its subagents' and compactions' included), apart from the
 * subscriber events: requests can be large and private, so they never go to a client stream.
 * Called synchronously; it must not throw (a throw is logged and ignored).
 */
export type ModelCallObserver = (event: ModelCallEvent) => void;
