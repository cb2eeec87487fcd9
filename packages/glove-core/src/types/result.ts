import type { TokenConsumptionCounter } from "./events.js";
import type { Message } from "./message.js";
import type { ModelPromptResult } from "./model.js";

/**
 * What one whole request cost: every model call it made (the agent loop's turns, structured-output
 * repairs, compaction summaries), added up. A subagent's child Glove counts its own.
 */
export interface RequestUsage extends TokenConsumptionCounter {
  model_calls: number;
}

/**
 * A request the model answered. `messages`, `tokens_in` and `tokens_out` are the last model call's
 * (as a ModelAdapter returns them); `text` and `usage` cover the answer and the whole request.
 */
export interface ModelAnswer extends ModelPromptResult {
  /** The final agent text: the texts of the last model call's messages, joined. */
  text: string;
  usage: RequestUsage;
}

/** A request a hook ended with its own message (`shortCircuit`): that message, plus the usage. */
export interface HookAnswer extends Message {
  usage: RequestUsage;
}

/**
 * What `processRequest` resolves to without `output`. Both members carry `text` (the final agent
 * text) and `usage`; `"messages" in result` tells a model's answer from a hook's.
 */
export type PlainRequestResult = ModelAnswer | HookAnswer;
