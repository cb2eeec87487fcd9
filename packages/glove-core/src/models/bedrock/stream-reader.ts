import { ProviderError } from "../../errors.js";
import type { ModelPromptResult, NotifySubscribersFunction } from "../../types/index.js";
import { EventStreamDecoder, type EventStreamError, type EventStreamMessage } from "../shared/aws.js";
import { readBodyChunks } from "../shared/body-chunks.js";
import type { ReadContext } from "../shared/http-adapter.js";
import { parseArgs } from "../shared/messages.js";
import { parseStreamEvent, streamFailure } from "../shared/response.js";
import { StreamedAnswer } from "../shared/streamed-answer.js";
import { isRetryableStatus } from "../shared/transport.js";
import { converseResult } from "./result.js";
import type { BedrockUsage } from "./wire-types.js";

/** HTTP statuses of ConverseStream's in-stream exceptions. */
const EXCEPTION_STATUS: Record<string, number> = {
  throttlingException: 429,
  serviceUnavailableException: 503,
  internalServerException: 500,
  modelStreamErrorException: 424,
  validationException: 400,
  modelTimeoutException: 408,
};

/** Reads a ConverseStream answer (AWS binary event stream), forwarding text deltas and tool calls as they complete. */
export async function readConverseStream(
  { provider }: ReadContext,
  response: Response,
  notify: NotifySubscribersFunction,
  bodyChars: number,
): Promise<ModelPromptResult> {
  if (!response.body) throw streamFailure(provider, "response has no body", true);
  const decoder = new EventStreamDecoder();
  const textDecoder = new TextDecoder();
  const answer = new StreamedAnswer(notify);
  let usage: BedrockUsage = {};
  let sawStop = false;
  const tools = new Map<number, { id: string; name: string; json: string }>();

  for await (const bytes of readBodyChunks(response.body)) {
    for (const { headers, payload } of decodeMessages(provider, decoder, bytes, response.status)) {
      const raw = textDecoder.decode(payload);
      const data = raw ? parseStreamEvent<Record<string, unknown>>(provider, response.status, raw) : {};
      if (headers[":message-type"] === "exception" || headers[":message-type"] === "error") {
        throw streamedException(provider, headers, data, raw);
      }
      switch (headers[":event-type"]) {
        case "contentBlockStart": {
          const start = (data["start"] as { toolUse?: { toolUseId: string; name: string } } | undefined)?.toolUse;
          if (start) tools.set(data["contentBlockIndex"] as number, { id: start.toolUseId, name: start.name, json: "" });
          break;
        }
        case "contentBlockDelta": {
          const delta = (data["delta"] ?? {}) as { text?: string; toolUse?: { input?: string }; reasoningContent?: { text?: string } };
          if (delta.text) await answer.addText(delta.text);
          if (delta.toolUse) {
            const entry = tools.get(data["contentBlockIndex"] as number);
            if (entry) entry.json += delta.toolUse.input ?? "";
          }
          if (delta.reasoningContent?.text) answer.reasoning += delta.reasoningContent.text;
          break;
        }
        case "contentBlockStop": {
          const index = data["contentBlockIndex"] as number;
          const entry = tools.get(index);
          if (entry) {
            tools.delete(index);
            await answer.addToolCall({ tool_name: entry.name, input_args: parseArgs(entry.json), id: entry.id });
          }
          break;
        }
        case "messageStop":
          sawStop = true;
          answer.stopReason = (data["stopReason"] as string | undefined) ?? undefined;
          break;
        case "metadata":
          usage = (data["usage"] as BedrockUsage | undefined) ?? {};
          break;
        default:
          break;
      }
    }
  }
  if (!sawStop) throw streamFailure(provider, "the stream ended before messageStop", true);
  const result = converseResult(answer.text, answer.reasoning, answer.toolCalls, usage, bodyChars);
  await answer.complete(result);
  return result;
}

/** The complete event-stream messages `bytes` finishes; a corrupt frame is a non-retryable ProviderError. */
function decodeMessages(provider: string, decoder: EventStreamDecoder, bytes: Uint8Array, status: number): EventStreamMessage[] {
  try {
    return decoder.push(bytes);
  } catch (error) {
    throw new ProviderError({
      provider,
      status,
      retryable: false,
      providerMessage: `malformed event stream: ${(error as EventStreamError).message}`,
      cause: error,
    });
  }
}

/** An in-stream exception, with the HTTP status its type stands for so throttling and outages are retried. */
function streamedException(
  provider: string,
  headers: EventStreamMessage["headers"],
  data: Record<string, unknown>,
  raw: string,
): ProviderError {
  const type = String(headers[":exception-type"] ?? headers[":error-code"] ?? "error");
  const status = EXCEPTION_STATUS[type] ?? 0;
  return new ProviderError({
    provider,
    status,
    retryable: status !== 0 && isRetryableStatus(status),
    providerMessage: String(data["message"] ?? data["Message"] ?? headers[":error-message"] ?? raw),
    providerCode: type,
  });
}
