import type { NotifySubscribersFunction } from "./events.js";
import type { Message } from "./message.js";
import type { Tool } from "./tool.js";

/** What a model adapter is asked for one call: the history, the tools and the system prompt. */
export interface PromptRequest {
  /**
   * The conversation as the model should see it. The array belongs to the runtime
   * and grows after the call returns: copy it if you keep it.
   */
  messages: Message[];
  tools?: Tool<unknown>[];
  /**
   * The system prompt for this call. Adapters should prefer it over any prompt
   * set with `setSystemPrompt`, so Gloves sharing one adapter never mix prompts.
   */
  systemPrompt?: string;
}

/** What a model adapter returns for one call: its messages and the tokens used. */
export interface ModelPromptResult {
  /** Response messages, typically one agent message. */
  messages: Message[];
  tokens_in: number;
  tokens_out: number;
}

/** Connects a language model to Glove. */
export interface ModelAdapter {
  name: string;
  prompt(
    request: PromptRequest,
    notify: NotifySubscribersFunction,
    signal?: AbortSignal,
  ): Promise<ModelPromptResult>;
  setSystemPrompt(systemPrompt: string): void;
}
