/**
 * Glove's model relay wire protocol, shared by the browser-side client
 * (`createRelayModel`) and glove-server's `createModelRelay`, so both ends
 * agree on one definition. Provider-neutral: messages are glove-core Messages
 * and tools are JSON Schema, whatever model sits behind the relay.
 */
import type { Message, StructuredOutputRequest, SubscriberEventType } from "../../types/index.js";

/** A tool as the relay receives it: its input as JSON Schema (the relay never runs tools). */
export interface RelayToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the tool's input. */
  parameters: Record<string, unknown>;
}

/** The JSON body POSTed to a relay. */
export interface RelayRequestBody {
  /** One of the relay's allowed models; the relay's default when absent. */
  model?: string;
  systemPrompt?: string;
  messages: Message[];
  tools?: RelayToolSpec[];
  /** Capped by the relay (larger values are lowered to its cap). */
  maxTokens?: number;
  /** A structured-output request, passed to the upstream adapter as `PromptRequest.output`. */
  output?: StructuredOutputRequest;
}

/** The final SSE event of a successful answer; its data is the ModelPromptResult. */
export const RELAY_RESULT_EVENT = "result";
/** The final SSE event of a failed answer; its data is a RelayErrorPayload. */
export const RELAY_ERROR_EVENT = "error";
/** `provider` of every ProviderError the relay client throws. */
export const RELAY_PROVIDER = "relay";

/**
 * Adapter events the client replays through `notify`, in the order the relay
 * sent them. Other event names are skipped, so a newer relay may add events
 * without breaking older clients, and a relay can never impersonate the
 * runtime's own events (tool results, compaction, subagents).
 */
export const RELAY_FORWARDED_EVENTS = [
  "text_delta",
  "tool_use",
  "model_response",
  "model_response_complete",
  "token_consumption",
  "model_refusal",
  "model_retry",
] as const satisfies readonly SubscriberEventType[];

/** An adapter event the relay passes on to the client. */
export type RelayForwardedEvent = (typeof RELAY_FORWARDED_EVENTS)[number];

/** The data of an `error` event: what failed upstream, never a stack trace. */
export interface RelayErrorPayload {
  /** Stable code, e.g. "GLOVE_PROVIDER". */
  code: string;
  message: string;
  /** The upstream provider's HTTP status (0: no response) when the failure was a ProviderError. */
  status?: number;
  retryable?: boolean;
  /** The provider's own error type or code, when it sent one. */
  providerCode?: string;
  retryAfterMs?: number;
}

/** One problem with a request field. */
export interface RelayIssue {
  path: string;
  message: string;
}

/** The JSON body of every error answered before streaming (400, 401, 403, 405, 413, 429…). */
export interface RelayErrorBody {
  error: { code: string; message: string; issues?: RelayIssue[] };
}
