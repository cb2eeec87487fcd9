import { ProviderError } from "../../errors.js";
import type { ModelPromptResult, NotifySubscribersFunction, ReasoningBlock } from "../../types/index.js";
import { EventStreamDecoder, type EventStreamError, type EventStreamMessage } from "../shared/aws.js";
import { parseArgs } from "../shared/messages.js";
import { ReasoningCollector } from "../shared/reasoning-blocks.js";
import { parseStreamEvent, streamFailure } from "../shared/response.js";
import { StreamedAnswer } from "../shared/streamed-answer.js";
import { outputToolAnswer } from "../shared/structured-output.js";
import { isRetryableStatus } from "../shared/transport.js";
import { argumentsValue, isJsonObject, WireShape, type ArgumentsValue } from "../shared/wire-shape.js";
import { converseResult, readUsage, type ConverseReadContext } from "./result.js";
import type { BedrockUsage } from "./wire-types.js";
import type { HttpResponse } from "../shared/http/types.js";

/** HTTP statuses of ConverseStream's in-stream exceptions. */
const EXCEPTION_STATUS: Record<string, number> = {
  throttlingException: 429,
  serviceUnavailableException: 503,
  internalServerException: 500,
  modelStreamErrorException: 424,
  validationException: 400,
  modelTimeoutException: 408,
};

/** The event types the reader uses; others are skipped unread. */
const READ_EVENTS: ReadonlySet<string> = new Set([
  "contentBlockStart",
  "contentBlockDelta",
  "contentBlockStop",
  "messageStop",
  "metadata",
]);

/** A toolUse block being streamed: its input as JSON text, or the object some servers send instead. */
interface StreamedToolUse {
  id: string;
  name: string;
  json: string;
  input?: Record<string, unknown>;
}

function addInput(shape: WireShape, entry: StreamedToolUse, input: NonNullable<ArgumentsValue>): void {
  if ("text" in input) {
    if (!input.text) return;
    if (entry.input)
      throw shape.fail(
        "contentBlockDelta.delta.toolUse.input is text, but this tool call's input already arrived as an object",
      );
    entry.json += input.text;
  } else {
    if (entry.input || entry.json.trim())
      throw shape.fail(
        "contentBlockDelta.delta.toolUse.input is an object, but this tool call's input already arrived in another delta",
      );
    entry.input = input.object;
  }
}

/**
 * Reads a ConverseStream answer (AWS binary event stream), forwarding text deltas and tool calls as
 * they complete. Every field it uses is checked: a frame of the wrong shape is a ProviderError naming
 * the field; event types it does not know are skipped.
 */
export async function readConverseStream(
  { provider, outputTool }: ConverseReadContext,
  response: HttpResponse,
  notify: NotifySubscribersFunction,
  bodyChars: number,
): Promise<ModelPromptResult> {
  const decoder = new EventStreamDecoder();
  const textDecoder = new TextDecoder();
  const answer = new StreamedAnswer(notify);
  const shape = new WireShape(provider, response.status);
  let usage: BedrockUsage = {};
  let sawStop = false;
  const tools = new Map<number, StreamedToolUse>();
  const reasoningBlocks = new ReasoningCollector(provider);
  // Reasoning has no contentBlockStart: a block opens with its first delta.
  const thinking = new Map<number, ReasoningBlock>();

  for await (const bytes of response.byteChunks()) {
    for (const { headers, payload } of decodeMessages(provider, decoder, bytes, response.status)) {
      const raw = textDecoder.decode(payload);
      const parsed = raw ? parseStreamEvent(provider, response.status, raw) : {};
      const messageType = headers[":message-type"];
      if (messageType === "exception" || messageType === "error") {
        throw streamedException(provider, headers, isJsonObject(parsed) ? parsed : {}, raw);
      }
      const eventType = headers[":event-type"];
      if (typeof eventType !== "string" || !READ_EVENTS.has(eventType)) continue; // messageStart and future event types
      const data = shape.object(parsed, `the ${eventType} event`);
      switch (eventType) {
        case "contentBlockStart": {
          const start = shape.optObject(data["start"], "contentBlockStart.start");
          const toolUse = start && shape.optObject(start["toolUse"], "contentBlockStart.start.toolUse");
          if (toolUse) {
            tools.set(shape.index(data["contentBlockIndex"], "contentBlockStart.contentBlockIndex"), {
              id: shape.string(toolUse["toolUseId"], "contentBlockStart.start.toolUse.toolUseId"),
              name: shape.toolName(toolUse["name"], "contentBlockStart.start.toolUse.name"),
              json: "",
            });
          }
          break;
        }
        case "contentBlockDelta": {
          const delta = shape.object(data["delta"], "contentBlockDelta.delta");
          const text = shape.optString(delta["text"], "contentBlockDelta.delta.text");
          if (text) await answer.addText(text);
          const toolUse = shape.optObject(delta["toolUse"], "contentBlockDelta.delta.toolUse");
          if (toolUse) {
            const entry = tools.get(shape.index(data["contentBlockIndex"], "contentBlockDelta.contentBlockIndex"));
            const input = argumentsValue(shape, toolUse["input"], "contentBlockDelta.delta.toolUse.input");
            if (entry && input) addInput(shape, entry, input);
          }
          const reasoningContent = shape.optObject(
            delta["reasoningContent"],
            "contentBlockDelta.delta.reasoningContent",
          );
          if (reasoningContent) {
            const index = shape.index(data["contentBlockIndex"], "contentBlockDelta.contentBlockIndex");
            readReasoningDelta(shape, reasoningContent, index, thinking, reasoningBlocks, answer);
          }
          break;
        }
        case "contentBlockStop": {
          const index = shape.index(data["contentBlockIndex"], "contentBlockStop.contentBlockIndex");
          const entry = tools.get(index);
          if (entry) {
            tools.delete(index);
            const input = entry.input ?? parseArgs(entry.json);
            // The forced answer tool of a structured-output request is the answer, not a call.
            if (entry.name === outputTool) await answer.addText(outputToolAnswer(input));
            else await answer.addToolCall({ tool_name: entry.name, input_args: input, id: entry.id });
          }
          break;
        }
        case "messageStop":
          sawStop = true;
          answer.stopReason = shape.optString(data["stopReason"], "messageStop.stopReason");
          break;
        case "metadata":
          usage = readUsage(shape, data["usage"], "metadata.usage");
          break;
        default:
          break;
      }
    }
  }
  if (!sawStop) throw streamFailure(provider, "the stream ended before messageStop", true);
  const result = converseResult(
    provider,
    answer.text,
    answer.reasoning,
    answer.toolCalls,
    reasoningBlocks.blocks,
    usage,
    bodyChars,
  );
  await answer.complete(result);
  return result;
}

/** One `reasoningContent` delta: text and signature extend the block at `index`; redacted content is a block of its own. */
function readReasoningDelta(
  shape: WireShape,
  delta: Record<string, unknown>,
  index: number,
  open: Map<number, ReasoningBlock>,
  blocks: ReasoningCollector,
  answer: StreamedAnswer,
): void {
  const redacted = shape.optString(
    delta["redactedContent"],
    "contentBlockDelta.delta.reasoningContent.redactedContent",
  );
  if (redacted) {
    blocks.redacted(redacted);
    return;
  }
  const text = shape.optString(delta["text"], "contentBlockDelta.delta.reasoningContent.text");
  const signature = shape.optString(delta["signature"], "contentBlockDelta.delta.reasoningContent.signature");
  if (text === undefined && signature === undefined) return;
  let block = open.get(index);
  if (!block) {
    block = blocks.thinking("", undefined);
    open.set(index, block);
  }
  if (text) {
    answer.reasoning += text;
    block.text = (block.text ?? "") + text;
  }
  if (signature) block.signature = (block.signature ?? "") + signature;
}

/** The complete event-stream messages `bytes` finishes; a corrupt frame is a non-retryable ProviderError. */
function decodeMessages(
  provider: string,
  decoder: EventStreamDecoder,
  bytes: Uint8Array,
  status: number,
): EventStreamMessage[] {
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
  const status = Object.hasOwn(EXCEPTION_STATUS, type) ? EXCEPTION_STATUS[type]! : 0;
  const message = [data["message"], data["Message"], headers[":error-message"]].find((m) => typeof m === "string");
  return new ProviderError({
    provider,
    status,
    retryable: status !== 0 && isRetryableStatus(status),
    providerMessage: typeof message === "string" ? message : raw,
    providerCode: type,
  });
}
