import type { NotifySubscribersFunction } from "./events.js";
import type { Message } from "./message.js";
import type { ModelWireRequest } from "./model-calls.js";
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
  /**
   * Asks for a final answer that is JSON matching `schema`. Adapters use the provider's native
   * JSON-schema mode where it has one (and set `supportsStructuredOutput`); Glove validates the
   * answer either way.
   */
  output?: StructuredOutputRequest;
  /**
   * Present when someone observes model calls (`Glove.observeModelCalls`): an adapter that sends
   * HTTP requests reports the wire request here, once per call, secrets redacted. Adapters that
   * ignore it are observed at the level of this request only.
   */
  reportWire?: (wire: ModelWireRequest) => void;
}

/** A structured-output request: the answer must be JSON matching a JSON Schema. */
export interface StructuredOutputRequest {
  /** A short identifier for the schema (letters, digits, `_`, `-`); providers require one. */
  name: string;
  /** JSON Schema (draft 2020-12 subset the providers accept) of the answer. */
  schema: Record<string, unknown>;
  description?: string;
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
  prompt(request: PromptRequest, notify: NotifySubscribersFunction, signal?: AbortSignal): Promise<ModelPromptResult>;
  setSystemPrompt(systemPrompt: string): void;
  /** True when the adapter sends `PromptRequest.output` to the provider's native JSON-schema mode. */
  readonly supportsStructuredOutput?: boolean;
}
