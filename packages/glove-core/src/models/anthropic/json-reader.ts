import type { ModelPromptResult, NotifySubscribersFunction, ToolCall } from "../../types/index.js";
import { announceResponse, readJsonBody } from "../shared/response.js";
import { WireShape } from "../shared/wire-shape.js";
import { toolInput } from "./content-blocks.js";
import { streamedError } from "./stream-reader.js";
import { mergeUsage, messagesResult, type MessagesReadContext } from "./usage.js";
import type { Usage } from "./wire-types.js";

/**
 * Reads a non-streamed Messages API answer. Every field it uses is checked (a wrong shape is a
 * ProviderError naming the field); block types it does not know are skipped.
 */
export async function readMessagesJson(
  context: MessagesReadContext,
  response: Response,
  notify: NotifySubscribersFunction,
  bodyChars: number,
): Promise<ModelPromptResult> {
  const shape = new WireShape(context.provider, response.status);
  const json = shape.object(await readJsonBody(context.provider, response), "response");
  if (json["type"] === "error") throw streamedError(context.provider, json, JSON.stringify(json));
  let text = "";
  let reasoning = "";
  const toolCalls: ToolCall[] = [];
  shape.array(json["content"], "response.content").forEach((value, i) => {
    const path = `response.content[${i}]`;
    const block = shape.object(value, path);
    const type = shape.string(block["type"], `${path}.type`);
    if (type === "text") text += shape.string(block["text"], `${path}.text`);
    else if (type === "thinking") reasoning += shape.optString(block["thinking"], `${path}.thinking`) ?? "";
    else if (type === "tool_use") {
      toolCalls.push({
        tool_name: shape.string(block["name"], `${path}.name`),
        input_args: toolInput(shape, block["input"], `${path}.input`),
        id: shape.string(block["id"], `${path}.id`),
      });
    }
  });
  const usage = mergeUsage(shape, {} as Usage, json["usage"], "response.usage");
  const result = messagesResult(context, { text, reasoning, toolCalls }, usage, bodyChars);
  const stopReason = shape.optString(json["stop_reason"], "response.stop_reason");
  await announceResponse(notify, false, { text, toolCalls, stopReason, result });
  return result;
}
