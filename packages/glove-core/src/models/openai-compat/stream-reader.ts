import type { ModelPromptResult, NotifySubscribersFunction } from "../../types/index.js";
import { announceResponse, announceToolUse, parseStreamEvent, streamFailure } from "../shared/response.js";
import { readSSEBatches } from "../shared/sse.js";
import { WireShape } from "../shared/wire-shape.js";
import { mergeMessageExtras, messageExtras } from "./message-extras.js";
import { ThinkTagStream } from "./reasoning.js";
import {
  announceRefusal,
  chatError,
  contentText,
  finishAnswer,
  reasoningText,
  refusalText,
  usageOf,
  type ChatReadContext,
} from "./response.js";
import { ToolCallDeltas } from "./tool-call-deltas.js";
import type { ChatUsage } from "./wire-types.js";
import type { HttpResponse } from "../shared/http/types.js";

/** Reads a streamed chat-completions answer, forwarding text deltas as they arrive. */
export async function readChatStream(
  context: ChatReadContext,
  response: HttpResponse,
  notify: NotifySubscribersFunction,
  bodyChars: number,
): Promise<ModelPromptResult> {
  const shape = new WireShape(context.provider, response.status);
  let text = "";
  let reasoning = "";
  let refusal = "";
  let stopReason: string | undefined;
  let usage: ChatUsage | undefined;
  let sawDone = false;
  let extras: Record<string, unknown> | undefined;
  const think = new ThinkTagStream(context.reasoning, notify);
  const calls = new ToolCallDeltas(shape);

  for await (const batch of readSSEBatches(response))
    for (const event of batch) {
      if (event.data === "[DONE]") {
        // Keep reading to the end of the body rather than cancelling it: a
        // cancelled body costs an abort (and the connection) for nothing.
        sawDone = true;
        continue;
      }
      if (sawDone) continue;
      const chunk = shape.object(parseStreamEvent(context.provider, response.status, event.data), "chunk");
      if (chunk["error"]) throw chatError(context.provider, chunk["error"]);
      usage = usageOf(shape, chunk, "chunk") ?? usage;
      const choices = shape.optArray(chunk["choices"], "chunk.choices");
      const choice = shape.optObject(choices?.[0], "chunk.choices[0]");
      if (!choice) continue;
      const delta = shape.optObject(choice["delta"], "chunk.choices[0].delta");
      if (delta) {
        const r = context.reasoning.on ? reasoningText(shape, delta, "chunk.choices[0].delta") : undefined;
        if (r) {
          reasoning += r;
          await think.reasoning(r);
        }
        const content = contentText(shape, delta["content"], "chunk.choices[0].delta.content");
        if (content) {
          await think.close();
          text += content;
          await notify("text_delta", { text: content });
        }
        // A refusal is the answer's text: it streams like text and marks the message at the end.
        const refused = refusalText(shape, delta, "chunk.choices[0].delta");
        if (refused) {
          await think.close();
          refusal += refused;
          await notify("text_delta", { text: refused });
        }
        const toolCalls = shape.optArray(delta["tool_calls"], "chunk.choices[0].delta.tool_calls");
        toolCalls?.forEach((d, i) => calls.add(d, `chunk.choices[0].delta.tool_calls[${i}]`));
        const more = messageExtras(delta);
        if (more) extras = mergeMessageExtras(extras ?? {}, more);
      }
      const finish = shape.optString(choice["finish_reason"], "chunk.choices[0].finish_reason");
      if (finish) stopReason = finish;
    }
  if (!sawDone && stopReason === undefined) {
    throw streamFailure(context.provider, "the stream ended before the response was complete", true);
  }
  await think.close();
  // Deltas may omit the function (later fragments do), but a call must have been named by the end.
  const unnamed = calls.calls.find((call) => call.name === "");
  if (unnamed)
    throw shape.fail(`chunk.choices[0].delta.tool_calls: call "${unnamed.id}" ended without a function name`);

  const answer = finishAnswer(context, text, reasoning, calls.calls, usage, bodyChars, refusal, extras);
  for (const call of answer.toolCalls) await announceToolUse(notify, call);
  await announceRefusal(notify, answer);
  await announceResponse(notify, true, {
    text: answer.text,
    toolCalls: answer.toolCalls,
    stopReason,
    result: answer.result,
  });
  return answer.result;
}
