import type { ModelPromptResult, NotifySubscribersFunction, ToolCall } from "../../types/index.js";
import { announceResponse, readJsonBody } from "../shared/response.js";
import { messagesResult, type MessagesReadContext } from "./usage.js";
import type { Block, Usage } from "./wire-types.js";

interface MessagesResponse {
  content?: Block[];
  stop_reason?: string | null;
  usage?: Usage;
}

/** Reads a non-streamed Messages API answer. */
export async function readMessagesJson(
  context: MessagesReadContext,
  response: Response,
  notify: NotifySubscribersFunction,
  bodyChars: number,
): Promise<ModelPromptResult> {
  const json = await readJsonBody<MessagesResponse>(context.provider, response);
  let text = "";
  let reasoning = "";
  const toolCalls: ToolCall[] = [];
  for (const block of json.content ?? []) {
    if (block.type === "text") text += String(block["text"] ?? "");
    else if (block.type === "thinking") reasoning += String(block["thinking"] ?? "");
    else if (block.type === "tool_use") {
      toolCalls.push({ tool_name: String(block["name"]), input_args: block["input"] ?? {}, id: String(block["id"]) });
    }
  }
  const result = messagesResult(context, { text, reasoning, toolCalls }, json.usage, bodyChars);
  await announceResponse(notify, false, { text, toolCalls, stopReason: json.stop_reason ?? undefined, result });
  return result;
}
