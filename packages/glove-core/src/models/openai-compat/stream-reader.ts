import type { ModelPromptResult, NotifySubscribersFunction } from "../../types/index.js";
import { announceResponse, announceToolUse, parseStreamEvent, streamFailure } from "../shared/response.js";
import { readSSEBatches } from "../shared/sse.js";
import { ThinkTagStream } from "./reasoning.js";
import { chatError, finishAnswer, type ChatReadContext } from "./response.js";
import { ToolCallDeltas } from "./tool-call-deltas.js";
import type { ChunkBody } from "./wire-types.js";

/** Reads a streamed chat-completions answer, forwarding text deltas as they arrive. */
export async function readChatStream(
  context: ChatReadContext,
  response: Response,
  notify: NotifySubscribersFunction,
  bodyChars: number,
): Promise<ModelPromptResult> {
  if (!response.body) throw chatError(context.provider, "response has no body");
  let text = "";
  let reasoning = "";
  let stopReason: string | undefined;
  let usage: ChunkBody["usage"];
  let sawDone = false;
  const think = new ThinkTagStream(context.reasoning, notify);
  const calls = new ToolCallDeltas();

  for await (const batch of readSSEBatches(response.body)) for (const event of batch) {
    if (event.data === "[DONE]") {
      // Keep reading to the end of the body rather than cancelling it: a
      // cancelled body costs an abort (and the connection) for nothing.
      sawDone = true;
      continue;
    }
    if (sawDone) continue;
    const chunk = parseStreamEvent<ChunkBody>(context.provider, response.status, event.data);
    if (chunk.error) throw chatError(context.provider, chunk.error);
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta;
    if (delta) {
      const r = context.reasoning.on ? (delta.reasoning_content ?? delta.reasoning) : undefined;
      if (r) {
        reasoning += r;
        await think.reasoning(r);
      }
      if (delta.content) {
        await think.close();
        text += delta.content;
        await notify("text_delta", { text: delta.content });
      }
      for (const d of delta.tool_calls ?? []) calls.add(d);
    }
    if (choice.finish_reason) stopReason = choice.finish_reason;
  }
  if (!sawDone && stopReason === undefined) {
    throw streamFailure(context.provider, "the stream ended before the response was complete", true);
  }
  await think.close();

  const answer = finishAnswer(context, text, reasoning, calls.calls, usage, bodyChars);
  for (const call of answer.toolCalls) await announceToolUse(notify, call);
  await announceResponse(notify, true, { text: answer.text, toolCalls: answer.toolCalls, stopReason, result: answer.result });
  return answer.result;
}
