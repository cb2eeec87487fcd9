import type { ModelPromptResult, NotifySubscribersFunction, ToolCall } from "../../types/index.js";
import { announceResponse, readJsonBody } from "../shared/response.js";
import { announceRefusal, outputToolAnswer } from "../shared/structured-output.js";
import { WireShape } from "../shared/wire-shape.js";
import { toolInput } from "./content-blocks.js";
import { ReasoningCollector } from "../shared/reasoning-blocks.js";
import { streamedError } from "./stream-reader.js";
import { mergeUsage, messagesResult, REFUSAL_STOP_REASON, type MessagesReadContext } from "./usage.js";
import type { Usage } from "./wire-types.js";
import type { HttpResponse } from "../shared/http/types.js";

/**
 * Reads a non-streamed Messages API answer. Every field it uses is checked (a wrong shape is a
 * ProviderError naming the field); block types it does not know are skipped.
 */
export async function readMessagesJson(
  context: MessagesReadContext,
  response: HttpResponse,
  notify: NotifySubscribersFunction,
  bodyChars: number,
): Promise<ModelPromptResult> {
  const shape = new WireShape(context.provider, response.status);
  const json = shape.object(await readJsonBody(context.provider, response), "response");
  if (json["type"] === "error") throw streamedError(context.provider, json, JSON.stringify(json));
  let text = "";
  let reasoning = "";
  const toolCalls: ToolCall[] = [];
  const reasoningBlocks = new ReasoningCollector(context.provider);
  shape.array(json["content"], "response.content").forEach((value, i) => {
    const path = `response.content[${i}]`;
    const block = shape.object(value, path);
    const type = shape.string(block["type"], `${path}.type`);
    if (type === "text") text += shape.string(block["text"], `${path}.text`);
    else if (type === "thinking") {
      const thinking = shape.optString(block["thinking"], `${path}.thinking`) ?? "";
      reasoning += thinking;
      reasoningBlocks.thinking(thinking, shape.optString(block["signature"], `${path}.signature`));
    } else if (type === "redacted_thinking") {
      reasoningBlocks.redacted(shape.string(block["data"], `${path}.data`));
    } else if (type === "tool_use") {
      const name = shape.toolName(block["name"], `${path}.name`);
      const input = toolInput(shape, block["input"], `${path}.input`);
      if (name === context.outputTool) text += outputToolAnswer(input);
      else toolCalls.push({ tool_name: name, input_args: input, id: shape.string(block["id"], `${path}.id`) });
    }
  });
  const usage = mergeUsage(shape, {} as Usage, json["usage"], "response.usage");
  const stopReason = shape.optString(json["stop_reason"], "response.stop_reason");
  const result = messagesResult(
    context,
    { text, reasoning, toolCalls, reasoningBlocks: reasoningBlocks.blocks, stopReason },
    usage,
    bodyChars,
  );
  await announceRefusal(notify, stopReason === REFUSAL_STOP_REASON, text);
  await announceResponse(notify, false, { text, toolCalls, stopReason, result });
  return result;
}
