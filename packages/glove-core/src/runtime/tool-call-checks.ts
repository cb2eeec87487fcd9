import { ModelResponseError, ProviderError } from "../errors.js";
import { describeJson, isJsonObject } from "../models/shared/wire-shape.js";
import type { Message, ToolCall } from "../types/index.js";

/**
 * Checks of what a model adapter hands the runtime. The built-in adapters check
 * the provider's JSON themselves; these checks are for everything else (custom
 * adapters, a relay, a test double) and run before the tool-call id pass, so a
 * malformed entry is a typed error here instead of a TypeError further on — and
 * nothing of the answer is stored.
 */

/** `providerCode` of the ProviderError for a tool call the runtime cannot use. */
export const MALFORMED_TOOL_CALL = "malformed_tool_call";

/** The error for a malformed tool call in `model`'s answer: not retried by adapters, the app decides. */
export function malformedToolCall(model: string, detail: string): ProviderError {
  return new ProviderError({
    provider: model,
    status: 0,
    retryable: false,
    providerMessage: detail,
    providerCode: MALFORMED_TOOL_CALL,
    message:
      `Model "${model}" answered with a malformed tool call: ${detail}. Nothing of this answer was stored. ` +
      "Retry the request; if it keeps happening, check the model or its ModelAdapter (tool_calls must be [{ tool_name, input_args, id? }]).",
  });
}

/**
 * `value` as a list of tool calls (undefined when absent): an array of objects,
 * each with a non-empty string `tool_name`. Ids are not checked here: missing or
 * non-string ids are replaced by the id pass (tool-call-ids.ts).
 */
export function checkToolCalls(value: unknown, model: string, path: string): ToolCall[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value))
    throw malformedToolCall(model, `${path} is ${describeJson(value)}, expected an array of tool calls`);
  value.forEach((call: unknown, i) => checkToolCall(call, model, `${path}[${i}]`));
  return value as ToolCall[];
}

function checkToolCall(call: unknown, model: string, path: string): void {
  if (!isJsonObject(call))
    throw malformedToolCall(model, `${path} is ${describeJson(call)}, expected { tool_name, input_args, id? }`);
  const name = call["tool_name"];
  if (typeof name !== "string" || name === "") {
    throw malformedToolCall(
      model,
      `${path}.tool_name is ${name === "" ? "empty" : describeJson(name)}, expected the name of a tool`,
    );
  }
}

/** A `tool_use` event's data: an object with a tool name (its id and input are repaired by the id pass). */
export function checkToolUseEvent(data: unknown, model: string): { id: string; name: string; input: unknown } {
  if (!isJsonObject(data))
    throw malformedToolCall(model, `the tool_use event is ${describeJson(data)}, expected { id, name, input }`);
  const name = data["name"];
  if (typeof name !== "string" || name === "") {
    throw malformedToolCall(
      model,
      `the tool_use event's name is ${name === "" ? "empty" : describeJson(name)}, expected the name of a tool`,
    );
  }
  return data as { id: string; name: string; input: unknown };
}

/**
 * The messages of an answer, checked: each an object (a ModelResponseError otherwise, as for a
 * missing messages array), its `tool_calls` absent or valid (a ProviderError otherwise).
 */
export function checkAnswerMessages(messages: readonly unknown[], model: string): readonly Message[] {
  messages.forEach((m, i) => {
    if (!isJsonObject(m)) {
      throw new ModelResponseError(
        `Model adapter "${model}" returned messages[${i}] as ${describeJson(m)}. A ModelAdapter's prompt() must resolve to { messages: [{ sender, text, tool_calls? }], tokens_in, tokens_out }.`,
      );
    }
    checkToolCalls(m["tool_calls"], model, `messages[${i}].tool_calls`);
  });
  return messages as readonly Message[];
}
