import { ProviderError } from "../../errors.js";
import type { ModelPromptResult, NotifySubscribersFunction } from "../../types/index.js";
import { parseArgs } from "../shared/messages.js";
import { parseStreamEvent, streamFailure } from "../shared/response.js";
import { readSSEBatches } from "../shared/sse.js";
import { StreamedAnswer } from "../shared/streamed-answer.js";
import { isRetryableStatus } from "../shared/transport.js";
import { messagesResult, type MessagesReadContext } from "./usage.js";
import type { Block, Usage } from "./wire-types.js";

/** A content block being streamed: tool calls gather their JSON input. */
interface OpenBlock {
  type: string;
  id?: string;
  name?: string;
  json: string;
}

/** Reads a streamed Messages API answer, forwarding text deltas and tool calls as they complete. */
export async function readMessagesStream(
  context: MessagesReadContext,
  response: Response,
  notify: NotifySubscribersFunction,
  bodyChars: number,
): Promise<ModelPromptResult> {
  const { provider } = context;
  if (!response.body) throw streamFailure(provider, "response has no body", false);
  const answer = new StreamedAnswer(notify);
  let usage: Usage = {};
  let stopped = false;
  const blocks = new Map<number, OpenBlock>();

  for await (const batch of readSSEBatches(response.body)) for (const event of batch) {
    const data = parseStreamEvent<Record<string, unknown>>(provider, response.status, event.data);
    // After message_stop, read on to the end of the body (cheaper than cancelling it).
    if (stopped) continue;
    const type = (data["type"] as string | undefined) ?? event.event;
    switch (type) {
      case "message_start": {
        const message = data["message"] as { usage?: Usage } | undefined;
        if (message?.usage) usage = { ...usage, ...message.usage };
        break;
      }
      case "content_block_start": {
        const block = data["content_block"] as Block;
        const entry: OpenBlock = { type: block.type, json: "" };
        if (block.type === "tool_use") {
          entry.id = String(block["id"]);
          entry.name = String(block["name"]);
        } else if (block.type === "text" && typeof block["text"] === "string" && block["text"]) {
          await answer.addText(block["text"]);
        } else if (block.type === "thinking" && typeof block["thinking"] === "string") {
          answer.reasoning += block["thinking"];
        }
        blocks.set(data["index"] as number, entry);
        break;
      }
      case "content_block_delta": {
        const delta = data["delta"] as Record<string, unknown>;
        const entry = blocks.get(data["index"] as number);
        switch (delta["type"]) {
          case "text_delta": {
            const chunk = String(delta["text"] ?? "");
            if (chunk) await answer.addText(chunk);
            break;
          }
          case "input_json_delta":
            if (entry) entry.json += String(delta["partial_json"] ?? "");
            break;
          case "thinking_delta":
            answer.reasoning += String(delta["thinking"] ?? "");
            break;
          default:
            // signature_delta, citations_delta…: nothing to surface
            break;
        }
        break;
      }
      case "content_block_stop": {
        const index = data["index"] as number;
        const entry = blocks.get(index);
        if (entry?.type === "tool_use") {
          await answer.addToolCall({ tool_name: entry.name!, input_args: parseArgs(entry.json), id: entry.id! });
        }
        blocks.delete(index);
        break;
      }
      case "message_delta": {
        const delta = data["delta"] as { stop_reason?: string | null } | undefined;
        if (delta?.stop_reason) answer.stopReason = delta.stop_reason;
        const u = data["usage"] as Usage | undefined;
        if (u) {
          for (const [k, v] of Object.entries(u)) if (v !== null && v !== undefined) (usage as Record<string, unknown>)[k] = v;
        }
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

  const result = messagesResult(context, answer, usage, bodyChars);
  await answer.complete(result);
  return result;
}

/** An `error` event, with the HTTP status its type stands for so overloads and rate limits are retried. */
function streamedError(provider: string, data: Record<string, unknown>, raw: string): ProviderError {
  const err = (data["error"] ?? {}) as { type?: string; message?: string };
  const status = err.type === "overloaded_error" ? 529 : err.type === "rate_limit_error" ? 429 : err.type === "api_error" ? 500 : 0;
  return new ProviderError({
    provider,
    status,
    retryable: status !== 0 && isRetryableStatus(status),
    providerMessage: err.message ?? raw,
    ...(err.type ? { providerCode: err.type } : {}),
  });
}
