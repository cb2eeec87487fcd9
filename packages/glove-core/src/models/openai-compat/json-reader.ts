import type { ModelPromptResult, NotifySubscribersFunction } from "../../types/index.js";
import { announceResponse, readJsonBody } from "../shared/response.js";
import { chatError, finishAnswer, type ChatReadContext } from "./response.js";
import type { ChunkBody, StreamedCall } from "./wire-types.js";

/** Reads a non-streamed chat-completions answer. */
export async function readChatJson(
  context: ChatReadContext,
  response: Response,
  notify: NotifySubscribersFunction,
  bodyChars: number,
): Promise<ModelPromptResult> {
  const json = await readJsonBody<ChunkBody>(context.provider, response);
  if (json.error) throw chatError(context.provider, json.error);
  const choice = json.choices?.[0];
  const msg = choice?.message ?? {};
  const reasoning = context.reasoning.on ? (msg.reasoning_content ?? msg.reasoning ?? "") : "";
  const calls: StreamedCall[] = (msg.tool_calls ?? []).map((c, i) => ({
    id: c.id ?? `call_${i}`,
    name: c.function?.name ?? "",
    args: c.function?.arguments ?? "",
  }));
  const answer = finishAnswer(context, msg.content ?? "", reasoning, calls, json.usage, bodyChars);
  await announceResponse(notify, false, {
    text: answer.text,
    toolCalls: answer.toolCalls,
    stopReason: choice?.finish_reason ?? undefined,
    result: answer.result,
  });
  return answer.result;
}
