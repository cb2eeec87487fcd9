import { ProviderError } from "../../errors.js";
import type { ModelPromptResult, ToolCall } from "../../types/index.js";
import { estimateTokens, parseArgs } from "../shared/messages.js";
import { agentMessage } from "../shared/response.js";
import { visibleText, type ReasoningSettings } from "./reasoning.js";
import type { ChunkBody, StreamedCall } from "./wire-types.js";

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
}

/** Builds the answer from what was read; estimates usage the provider did not report. */
export function finishAnswer(
  context: ChatReadContext,
  text: string,
  reasoning: string,
  calls: StreamedCall[],
  usage: ChunkBody["usage"],
  bodyChars: number,
): ChatAnswer {
  const toolCalls: ToolCall[] = calls.map((c) => ({ tool_name: c.name, input_args: parseArgs(c.args), id: c.id }));
  const visible = visibleText(context.reasoning, text, reasoning);
  const message = agentMessage(visible, context.reasoning.on ? reasoning : "", toolCalls);
  const outChars = text.length + reasoning.length + calls.reduce((n, c) => n + c.args.length + c.name.length, 0);
  return {
    result: {
      messages: [message],
      tokens_in: usage?.prompt_tokens ?? estimateTokens(bodyChars),
      tokens_out: usage?.completion_tokens ?? estimateTokens(outChars),
    },
    toolCalls,
    text: visible,
  };
}

/** An error the provider reported inside a 200 response (body or stream). */
export function chatError(provider: string, error: ChunkBody["error"]): ProviderError {
  const e = typeof error === "string" ? { message: error } : (error ?? {});
  const code = e.code ?? e.type;
  return new ProviderError({
    provider,
    status: 0,
    retryable: false,
    providerMessage: e.message ?? JSON.stringify(error),
    ...(code !== undefined ? { providerCode: String(code) } : {}),
  });
}
