import { ProviderError } from "../../errors.js";
import type { ModelPromptResult, NotifySubscribersFunction } from "../../types/index.js";
import { parseArgs } from "../shared/messages.js";
import { parseStreamEvent, streamFailure } from "../shared/response.js";
import { readSSEBatches } from "../shared/sse.js";
import { StreamedAnswer } from "../shared/streamed-answer.js";
import { announceRefusal, outputToolAnswer } from "../shared/structured-output.js";
import { isRetryableStatus } from "../shared/transport.js";
import { isJsonObject, WireShape, type JsonObject } from "../shared/wire-shape.js";
import type { ReasoningBlock } from "../../types/index.js";
import { toolInput } from "./content-blocks.js";
import { ReasoningCollector } from "../shared/reasoning-blocks.js";
import { mergeUsage, messagesResult, REFUSAL_STOP_REASON, type MessagesReadContext } from "./usage.js";
import type { Usage } from "./wire-types.js";
import type { HttpResponse } from "../shared/http/types.js";

/** A content block being streamed: tool calls gather their JSON input. */
interface OpenBlock {
  type: string;
  id?: string;
  name?: string;
  json: string;
  /** The input sent whole in content_block_start (used when no input_json_delta follows). */
  input?: unknown;
  /** A thinking block's stored form, which takes its text and signature deltas. */
  reasoning?: ReasoningBlock;
}

/**
 * Reads a streamed Messages API answer, forwarding text deltas and tool calls as they complete.
 * Every field it uses is checked: an event of the wrong shape is a ProviderError naming the field;
 * block and delta types it does not know are skipped (the API adds new ones).
 */
export async function readMessagesStream(
  context: MessagesReadContext,
  response: HttpResponse,
  notify: NotifySubscribersFunction,
  bodyChars: number,
): Promise<ModelPromptResult> {
  const { provider } = context;
  const shape = new WireShape(provider, response.status);
  const answer = new StreamedAnswer(notify);
  const usage: Usage = {};
  let stopped = false;
  const blocks = new Map<number, OpenBlock>();
  const reasoningBlocks = new ReasoningCollector(provider);

  for await (const batch of readSSEBatches(response))
    for (const event of batch) {
      const parsed = parseStreamEvent(provider, response.status, event.data);
      // After message_stop, read on to the end of the body (cheaper than cancelling it).
      if (stopped) continue;
      const data = shape.object(parsed, `the ${event.event} event`);
      const type = shape.optString(data["type"], `${event.event}.type`) ?? event.event;
      switch (type) {
        case "message_start": {
          const message = shape.optObject(data["message"], "message_start.message");
          if (message) mergeUsage(shape, usage, message["usage"], "message_start.message.usage");
          break;
        }
        case "content_block_start": {
          const index = shape.index(data["index"], "content_block_start.index");
          const block = shape.object(data["content_block"], "content_block_start.content_block");
          const blockType = shape.string(block["type"], "content_block_start.content_block.type");
          const entry: OpenBlock = { type: blockType, json: "" };
          if (blockType === "tool_use") {
            entry.id = shape.string(block["id"], "content_block_start.content_block.id");
            entry.name = shape.toolName(block["name"], "content_block_start.content_block.name");
            entry.input = block["input"];
          } else if (blockType === "text") {
            const text = shape.optString(block["text"], "content_block_start.content_block.text");
            if (text) await answer.addText(text);
          } else if (blockType === "thinking") {
            const thinking = shape.optString(block["thinking"], "content_block_start.content_block.thinking") ?? "";
            answer.reasoning += thinking;
            entry.reasoning = reasoningBlocks.thinking(
              thinking,
              shape.optString(block["signature"], "content_block_start.content_block.signature"),
            );
          } else if (blockType === "redacted_thinking") {
            reasoningBlocks.redacted(shape.string(block["data"], "content_block_start.content_block.data"));
          }
          blocks.set(index, entry);
          break;
        }
        case "content_block_delta": {
          const index = shape.index(data["index"], "content_block_delta.index");
          const delta = shape.object(data["delta"], "content_block_delta.delta");
          const entry = blocks.get(index);
          switch (shape.string(delta["type"], "content_block_delta.delta.type")) {
            case "text_delta": {
              const chunk = shape.string(delta["text"], "content_block_delta.delta.text");
              if (chunk) await answer.addText(chunk);
              break;
            }
            case "input_json_delta": {
              const json = shape.string(delta["partial_json"], "content_block_delta.delta.partial_json");
              if (entry) entry.json += json;
              break;
            }
            case "thinking_delta": {
              const thinking = shape.string(delta["thinking"], "content_block_delta.delta.thinking");
              answer.reasoning += thinking;
              if (entry?.reasoning) entry.reasoning.text = (entry.reasoning.text ?? "") + thinking;
              break;
            }
            case "signature_delta": {
              const signature = shape.string(delta["signature"], "content_block_delta.delta.signature");
              if (entry?.reasoning) entry.reasoning.signature = (entry.reasoning.signature ?? "") + signature;
              break;
            }
            default:
              // citations_delta and future delta types: nothing to surface
              break;
          }
          break;
        }
        case "content_block_stop": {
          const index = shape.index(data["index"], "content_block_stop.index");
          const entry = blocks.get(index);
          if (entry?.type === "tool_use") {
            const input = entry.json.trim()
              ? parseArgs(entry.json)
              : toolInput(shape, entry.input, "content_block_start.content_block.input");
            // The forced answer tool of structured output in tool mode is the answer, not a call.
            if (entry.name === context.outputTool) await answer.addText(outputToolAnswer(input));
            else await answer.addToolCall({ tool_name: entry.name!, input_args: input, id: entry.id! });
          }
          blocks.delete(index);
          break;
        }
        case "message_delta": {
          const delta = shape.optObject(data["delta"], "message_delta.delta");
          const stopReason = delta && shape.optString(delta["stop_reason"], "message_delta.delta.stop_reason");
          if (stopReason) answer.stopReason = stopReason;
          mergeUsage(shape, usage, data["usage"], "message_delta.usage");
          break;
        }
        case "message_stop":
          stopped = true;
          break;
        case "error":
          throw streamedError(provider, data, event.data);
        default:
          // ping and future event types
          break;
      }
    }
  if (!stopped) throw streamFailure(provider, "the stream ended before message_stop", true);

  const result = messagesResult(
    context,
    {
      text: answer.text,
      reasoning: answer.reasoning,
      toolCalls: answer.toolCalls,
      reasoningBlocks: reasoningBlocks.blocks,
      stopReason: answer.stopReason,
    },
    usage,
    bodyChars,
  );
  await announceRefusal(notify, answer.stopReason === REFUSAL_STOP_REASON, answer.text);
  await answer.complete(result);
  return result;
}

/** An `error` event (or error body), with the HTTP status its type stands for so overloads and rate limits are retried. */
export function streamedError(provider: string, data: JsonObject, raw: string): ProviderError {
  const err = isJsonObject(data["error"]) ? data["error"] : {};
  const type = typeof err["type"] === "string" ? err["type"] : undefined;
  const status = type === "overloaded_error" ? 529 : type === "rate_limit_error" ? 429 : type === "api_error" ? 500 : 0;
  return new ProviderError({
    provider,
    status,
    retryable: status !== 0 && isRetryableStatus(status),
    providerMessage: typeof err["message"] === "string" ? err["message"] : raw,
    ...(type ? { providerCode: type } : {}),
  });
}
