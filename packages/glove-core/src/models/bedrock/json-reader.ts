import type { ModelPromptResult, NotifySubscribersFunction, ToolCall } from "../../types/index.js";
import type { ReadContext } from "../shared/http-adapter.js";
import { announceResponse, readJsonBody } from "../shared/response.js";
import { converseResult } from "./result.js";
import type { Block, BedrockUsage } from "./wire-types.js";

interface ConverseResponse {
  output?: { message?: { content?: Block[] } };
  stopReason?: string;
  usage?: BedrockUsage;
}

/** Reads a Converse (non-streamed) answer. */
export async function readConverseJson(
  context: ReadContext,
  response: Response,
  notify: NotifySubscribersFunction,
  bodyChars: number,
): Promise<ModelPromptResult> {
  const json = await readJsonBody<ConverseResponse>(context.provider, response);
  let text = "";
  let reasoning = "";
  const toolCalls: ToolCall[] = [];
  for (const block of json.output?.message?.content ?? []) {
    if (typeof block["text"] === "string") text += block["text"];
    const use = block["toolUse"] as { toolUseId: string; name: string; input?: unknown } | undefined;
    if (use) toolCalls.push({ tool_name: use.name, input_args: use.input ?? {}, id: use.toolUseId });
    const rc = block["reasoningContent"] as { reasoningText?: { text?: string } } | undefined;
    if (rc?.reasoningText?.text) reasoning += rc.reasoningText.text;
  }
  const result = converseResult(text, reasoning, toolCalls, json.usage ?? {}, bodyChars);
  await announceResponse(notify, false, { text, toolCalls, stopReason: json.stopReason ?? undefined, result });
  return result;
}
