import type { ModelPromptResult, NotifySubscribersFunction, ToolCall } from "../../types/index.js";
import type { ReadContext } from "../shared/http-adapter.js";
import { announceResponse, readJsonBody } from "../shared/response.js";
import { WireShape } from "../shared/wire-shape.js";
import { converseResult, readUsage, toolUseInput } from "./result.js";

/**
 * Reads a Converse (non-streamed) answer. Every field it uses is checked (a wrong shape is a
 * ProviderError naming the field); block kinds it does not know are skipped.
 */
export async function readConverseJson(
  context: ReadContext,
  response: Response,
  notify: NotifySubscribersFunction,
  bodyChars: number,
): Promise<ModelPromptResult> {
  const shape = new WireShape(context.provider, response.status);
  const json = shape.object(await readJsonBody(context.provider, response), "response");
  const output = shape.object(json["output"], "response.output");
  const message = shape.object(output["message"], "response.output.message");
  let text = "";
  let reasoning = "";
  const toolCalls: ToolCall[] = [];
  shape.array(message["content"], "response.output.message.content").forEach((value, i) => {
    const path = `response.output.message.content[${i}]`;
    const block = shape.object(value, path);
    text += shape.optString(block["text"], `${path}.text`) ?? "";
    const use = shape.optObject(block["toolUse"], `${path}.toolUse`);
    if (use) {
      toolCalls.push({
        tool_name: shape.string(use["name"], `${path}.toolUse.name`),
        input_args: toolUseInput(shape, use["input"], `${path}.toolUse.input`),
        id: shape.string(use["toolUseId"], `${path}.toolUse.toolUseId`),
      });
    }
    const rc = shape.optObject(block["reasoningContent"], `${path}.reasoningContent`);
    const rt = rc && shape.optObject(rc["reasoningText"], `${path}.reasoningContent.reasoningText`);
    if (rt) reasoning += shape.optString(rt["text"], `${path}.reasoningContent.reasoningText.text`) ?? "";
  });
  const result = converseResult(text, reasoning, toolCalls, readUsage(shape, json["usage"], "response.usage"), bodyChars);
  const stopReason = shape.optString(json["stopReason"], "response.stopReason");
  await announceResponse(notify, false, { text, toolCalls, stopReason, result });
  return result;
}
