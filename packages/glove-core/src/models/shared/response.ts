import { ProviderError } from "../../errors.js";
import type { Message, ModelPromptResult, NotifySubscribersFunction, ToolCall } from "../../types/index.js";
import type { HttpResponse } from "./http/types.js";

/**
 * Reads a non-streamed response body as JSON; an unparseable body is a non-retryable ProviderError.
 * The value is whatever JSON the provider sent: check its shape (./wire-shape.ts) before use.
 */
export async function readJsonBody(provider: string, response: HttpResponse): Promise<unknown> {
  const raw = await response.text();
  try {
    return JSON.parse(raw) as unknown;
  } catch (error) {
    throw new ProviderError({
      provider,
      status: response.status,
      retryable: false,
      providerMessage: `unparseable response body: ${raw.slice(0, 200)}`,
      cause: error,
    });
  }
}

/**
 * Parses one streamed event's JSON; a malformed event is a non-retryable ProviderError. The value
 * is whatever JSON the provider sent: check its shape (./wire-shape.ts) before use.
 */
export function parseStreamEvent(provider: string, status: number, data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch (error) {
    throw new ProviderError({
      provider,
      status,
      retryable: false,
      providerMessage: `malformed stream event: ${data.slice(0, 200)}`,
      cause: error,
    });
  }
}

/** A failure of the stream itself (no body, cut short): status 0, as no HTTP status explains it. */
export function streamFailure(provider: string, message: string, retryable: boolean): ProviderError {
  return new ProviderError({ provider, status: 0, retryable, providerMessage: message });
}

/** The agent message of a completed prompt. */
export function agentMessage(text: string, reasoning: string, toolCalls: ToolCall[]): Message {
  const message: Message = { sender: "agent", text };
  if (toolCalls.length) message.tool_calls = toolCalls;
  if (reasoning) message.reasoning_content = reasoning;
  return message;
}

/** What a finished prompt reports to subscribers. */
export interface FinishedResponse {
  text: string;
  toolCalls: ToolCall[];
  stopReason: string | undefined;
  result: ModelPromptResult;
}

/**
 * Tells subscribers a prompt finished: `model_response_complete` after a stream
 * (whose text already went out as deltas), `model_response` otherwise.
 */
export async function announceResponse(
  notify: NotifySubscribersFunction,
  streamed: boolean,
  { text, toolCalls, stopReason, result }: FinishedResponse,
): Promise<void> {
  await notify(streamed ? "model_response_complete" : "model_response", {
    text,
    tool_calls: toolCalls.length ? toolCalls : undefined,
    stop_reason: stopReason,
    tokens_in: result.tokens_in,
    tokens_out: result.tokens_out,
  });
}

/** Announces one completed tool call. */
export async function announceToolUse(notify: NotifySubscribersFunction, call: ToolCall): Promise<void> {
  await notify("tool_use", { id: call.id!, name: call.tool_name, input: call.input_args });
}
