/**
 * Xiaomi MiMo adapter. MiMo speaks OpenAI chat completions and emits its
 * reasoning as `reasoning_content`, which must be echoed back on tool-calling
 * turns: this adapter always captures and echoes it.
 */
import { OpenAICompatAdapter, type ReasoningEffort } from "./openai-compat.js";
import type { HttpAdapterOptions } from "./shared/adapter-options.js";

export { ProviderError } from "../errors.js";

/** The default endpoint of Xiaomi's MiMo API. */
export const MIMO_BASE_URL = "https://api.xiaomimimo.com/v1";

/** Options of MiMoAdapter; `reasoningEffort` also turns MiMo's thinking on or off. */
export interface MiMoAdapterOptions extends HttpAdapterOptions {
  apiKey?: string;
  baseURL?: string;
  /**
   * Mapped onto MiMo's thinking switch: "minimal" turns thinking off
   * (`thinking: { type: "disabled" }`), other values turn it on and are also sent
   * as `reasoning_effort`. Unset: the model's own default.
   */
  reasoningEffort?: ReasoningEffort;
  /** Wrap reasoning in <think>…</think> before the visible text (default false). */
  includeReasoningInText?: boolean;
}

/** Talks to Xiaomi MiMo, echoing its reasoning back on tool-calling turns as MiMo requires. */
export class MiMoAdapter extends OpenAICompatAdapter {
  constructor(options: MiMoAdapterOptions) {
    const effort = options.reasoningEffort;
    super({
      ...options,
      provider: "mimo",
      baseURL: options.baseURL ?? MIMO_BASE_URL,
      maxTokensField: "max_tokens",
      reasoningEffort: undefined,
      reasoning: {
        echo: true,
        includeInText: options.includeReasoningInText ?? false,
        ...(effort === "minimal"
          ? { thinking: { type: "disabled" as const } }
          : effort
            ? { thinking: { type: "enabled" as const }, effort }
            : {}),
      },
    });
  }
}
