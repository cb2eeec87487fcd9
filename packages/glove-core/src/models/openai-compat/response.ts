import { ProviderError } from "../../errors.js";
import type { ModelPromptResult, NotifySubscribersFunction, ToolCall } from "../../types/index.js";
import { estimateTokens, parseArgs } from "../shared/messages.js";
import { agentMessage } from "../shared/response.js";
import { isJsonObject, tokenCount, type WireShape } from "../shared/wire-shape.js";
import { visibleText, type ReasoningSettings } from "./reasoning.js";
import type { ChatUsage, StreamedCall } from "./wire-types.js";
import { mapPacked } from "../../runtime/shapes.js";

/** What the response readers need to know about their adapter. */
export interface ChatReadContext {
  provider: string;
  reasoning: ReasoningSettings;
}

/** A completed answer: the prompt result and the tool calls it carries. */
export interface ChatAnswer {
  result: ModelPromptResult;
  toolCalls: ToolCall[];
  /** The agent message's text (reasoning included when shown in the text). */
  text: string;
  /** The provider's refusal, when it refused (also part of `text`); "" otherwise. */
  refusal: string;
}

/**
 * Builds the answer from what was read; estimates usage the provider did not report. A refusal
 * (the `refusal` field OpenAI sends instead of content) becomes the answer's text and marks the
 * message `is_refusal`. The message's own extras (./message-extras.ts) ride on it with the
 * provider id.
 */
export function finishAnswer(
  context: ChatReadContext,
  content: string,
  reasoning: string,
  calls: StreamedCall[],
  usage: ChatUsage | undefined,
  bodyChars: number,
  refusal = "",
  extras?: Record<string, unknown>,
): ChatAnswer {
  const toolCalls: ToolCall[] = mapPacked(calls, (c) => {
    const call: ToolCall = { tool_name: c.name, input_args: c.input ?? parseArgs(c.args), id: c.id };
    if (c.extras) call.provider_extras = c.extras;
    return call;
  });
  const text = content + refusal;
  const visible = visibleText(context.reasoning, text, reasoning);
  const message = agentMessage(visible, context.reasoning.on ? reasoning : "", toolCalls);
  if (refusal) message.is_refusal = true;
  // Extras are stamped with the provider that produced them, which alone gets them back.
  message.provider = context.provider;
  if (extras) message.provider_extras = extras;
  const outChars = text.length + reasoning.length + calls.reduce((n, c) => n + c.args.length + c.name.length, 0);
  return {
    refusal,
    result: {
      messages: [message],
      tokens_in: usage?.prompt ?? estimateTokens(bodyChars),
      tokens_out: usage?.completion ?? estimateTokens(outChars),
    },
    toolCalls,
    text: visible,
  };
}

/** Tells subscribers the provider refused (after the calls, before the response event). */
export async function announceRefusal(notify: NotifySubscribersFunction, answer: ChatAnswer): Promise<void> {
  if (answer.refusal) await notify("model_refusal", { text: answer.refusal });
}

/**
 * The usage of a chunk or body: its `usage`, else Groq's `x_groq.usage` (older Groq streams put
 * the counts only there).
 */
export function usageOf(shape: WireShape, holder: Record<string, unknown>, path: string): ChatUsage | undefined {
  const usage = readUsage(shape, holder["usage"], `${path}.usage`);
  if (usage) return usage;
  const groq = shape.optObject(holder["x_groq"], `${path}.x_groq`);
  return groq ? readUsage(shape, groq["usage"], `${path}.x_groq.usage`) : undefined;
}

/** The `usage` object of a chunk or body; counts that are not non-negative integers count as absent. */
export function readUsage(shape: WireShape, value: unknown, path: string): ChatUsage | undefined {
  const usage = shape.optObject(value, path);
  if (!usage) return undefined;
  const out: ChatUsage = {};
  const prompt = tokenCount(usage["prompt_tokens"]);
  const completion = tokenCount(usage["completion_tokens"]);
  if (prompt !== undefined) out.prompt = prompt;
  if (completion !== undefined) out.completion = completion;
  return out;
}

/**
 * Message content as text: a string, or an array of content parts whose `text` strings are joined
 * (some servers answer in parts); parts without text (refusals, images) add nothing here.
 */
export function contentText(shape: WireShape, value: unknown, path: string): string | undefined {
  if (value === undefined || value === null || typeof value === "string") return value ?? undefined;
  if (!Array.isArray(value)) throw shape.wrong(path, value, "a string or an array of content parts");
  let text = "";
  value.forEach((part, i) => {
    const p = shape.object(part, `${path}[${i}]`);
    text += shape.optString(p["text"], `${path}[${i}].text`) ?? "";
  });
  return text;
}

/**
 * The refusal of a delta or message: its `refusal` string, plus the `refusal` of any content part
 * of type "refusal" (the content-parts form of the same thing).
 */
export function refusalText(shape: WireShape, holder: Record<string, unknown>, path: string): string {
  let refusal = shape.optString(holder["refusal"], `${path}.refusal`) ?? "";
  const content = holder["content"];
  if (Array.isArray(content)) {
    content.forEach((part, i) => {
      if (isJsonObject(part) && part["type"] === "refusal")
        refusal += shape.optString(part["refusal"], `${path}.content[${i}].refusal`) ?? "";
    });
  }
  return refusal;
}

/** The reasoning of a delta or message (`reasoning_content`, else `reasoning`). */
export function reasoningText(shape: WireShape, holder: Record<string, unknown>, path: string): string | undefined {
  return (
    shape.optString(holder["reasoning_content"], `${path}.reasoning_content`) ??
    shape.optString(holder["reasoning"], `${path}.reasoning`)
  );
}

/** An error the provider reported inside a 200 response (body or stream), whatever its shape. */
export function chatError(provider: string, error: unknown): ProviderError {
  const e = isJsonObject(error) ? error : {};
  const message =
    typeof error === "string" ? error : typeof e["message"] === "string" ? e["message"] : JSON.stringify(error);
  const code = e["code"] ?? e["type"];
  return new ProviderError({
    provider,
    status: 0,
    retryable: false,
    providerMessage: message,
    ...(typeof code === "string" || typeof code === "number" ? { providerCode: String(code) } : {}),
  });
}
