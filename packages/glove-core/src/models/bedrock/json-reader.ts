import type { ModelPromptResult, NotifySubscribersFunction, ToolCall } from "../../types/index.js";
import { ReasoningCollector } from "../shared/reasoning-blocks.js";
import { announceResponse, readJsonBody } from "../shared/response.js";
import { outputToolAnswer } from "../shared/structured-output.js";
import { WireShape } from "../shared/wire-shape.js";
import { converseResult, readUsage, toolUseInput, type ConverseReadContext } from "./result.js";
import type { HttpResponse } from "../shared/http/types.js";

/**
 * Reads a Converse (non-streamed) answer. Every field it uses is checked (a wrong shape is a
 * ProviderError naming the field); block kinds it does not know are skipped.
 */
export async function readConverseJson(
  context: ConverseReadContext,
  response: HttpResponse,
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
  const reasoningBlocks = new ReasoningCollector(context.provider);
  shape.array(message["content"], "response.output.message.content").forEach((value, i) => {
    const path = `response.output.message.content[${i}]`;
    const block = shape.object(value, path);
    text += shape.optString(block["text"], `${path}.text`) ?? "";
    const use = shape.optObject(block["toolUse"], `${path}.toolUse`);
    if (use) {
      const name = shape.toolName(use["name"], `${path}.toolUse.name`);
      const input = toolUseInput(shape, use["input"], `${path}.toolUse.input`);
      if (name === context.outputTool) text += outputToolAnswer(input);
      else
        toolCalls.push({
          tool_name: name,
          input_args: input,
          id: shape.string(use["toolUseId"], `${path}.toolUse.toolUseId`),
        });
    }
    const rc = shape.optObject(block["reasoningContent"], `${path}.reasoningContent`);
    const rt = rc && shape.optObject(rc["reasoningText"], `${path}.reasoningContent.reasoningText`);
    if (rt) {
      const thinking = shape.optString(rt["text"], `${path}.reasoningContent.reasoningText.text`) ?? "";
      reasoning += thinking;
      reasoningBlocks.thinking(
        thinking,
        shape.optString(rt["signature"], `${path}.reasoningContent.reasoningText.signature`),
      );
    }
    const redacted = rc && shape.optString(rc["redactedContent"], `${path}.reasoningContent.redactedContent`);
    if (redacted) reasoningBlocks.redacted(redacted);
  });
  const result = converseResult(
    context.provider,
    text,
    reasoning,
    toolCalls,
    reasoningBlocks.blocks,
    readUsage(shape, json["usage"], "response.usage"),
    bodyChars,
  );
  const stopReason = shape.optString(json["stopReason"], "response.stopReason");
  await announceResponse(notify, false, { text, toolCalls, stopReason, result });
  return result;
}
