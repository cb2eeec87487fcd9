import type { ModelPromptResult, NotifySubscribersFunction } from "../../types/index.js";
import { announceResponse, readJsonBody } from "../shared/response.js";
import { argumentsValue, WireShape } from "../shared/wire-shape.js";
import { callExtras } from "./call-extras.js";
import { messageExtras } from "./message-extras.js";
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
import type { StreamedCall } from "./wire-types.js";
import type { HttpResponse } from "../shared/http/types.js";

/** Reads a non-streamed chat-completions answer; every field it uses is checked (a wrong shape is a ProviderError). */
export async function readChatJson(
  context: ChatReadContext,
  response: HttpResponse,
  notify: NotifySubscribersFunction,
  bodyChars: number,
): Promise<ModelPromptResult> {
  const shape = new WireShape(context.provider, response.status);
  const json = shape.object(await readJsonBody(context.provider, response), "response");
  if (json["error"]) throw chatError(context.provider, json["error"]);
  const choices = shape.array(json["choices"], "response.choices");
  if (choices.length === 0) throw shape.fail("response.choices is empty: the answer holds no message");
  const choice = shape.object(choices[0], "response.choices[0]");
  const msg = shape.object(choice["message"], "response.choices[0].message");
  const reasoning = context.reasoning.on ? (reasoningText(shape, msg, "response.choices[0].message") ?? "") : "";
  const text = contentText(shape, msg["content"], "response.choices[0].message.content") ?? "";
  const calls: StreamedCall[] = (shape.optArray(msg["tool_calls"], "response.choices[0].message.tool_calls") ?? []).map(
    (value, i) => {
      const path = `response.choices[0].message.tool_calls[${i}]`;
      const c = shape.object(value, path);
      const fn = shape.object(c["function"], `${path}.function`);
      const call: StreamedCall = {
        id: shape.optString(c["id"], `${path}.id`) || `call_${i}`,
        name: shape.toolName(fn["name"], `${path}.function.name`),
        args: "",
      };
      const args = argumentsValue(shape, fn["arguments"], `${path}.function.arguments`);
      if (args && "text" in args) call.args = args.text;
      else if (args) call.input = args.object;
      const extras = callExtras(c);
      if (extras) call.extras = extras;
      return call;
    },
  );
  const refusal = refusalText(shape, msg, "response.choices[0].message");
  const usage = usageOf(shape, json, "response");
  const answer = finishAnswer(context, text, reasoning, calls, usage, bodyChars, refusal, messageExtras(msg));
  await announceRefusal(notify, answer);
  await announceResponse(notify, false, {
    text: answer.text,
    toolCalls: answer.toolCalls,
    stopReason: shape.optString(choice["finish_reason"], "response.choices[0].finish_reason"),
    result: answer.result,
  });
  return answer.result;
}
