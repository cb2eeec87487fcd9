import type { TokenConsumptionCounter } from "glove-core";
import type { ConversationStats } from "../storage/types.js";

/** A conversation before its first model call. */
export const NO_STATS: ConversationStats = Object.freeze({ turns: 0, tokens_in: 0, tokens_out: 0 });

/**
 * The stats after one event, counted as glove-react counts the events it sees (a model call is a
 * turn; `token_consumption` adds its counts), so a snapshot's stats plus the events after it give
 * a client the same totals as the server. Other events return the same object.
 */
export function countEvent(stats: ConversationStats, type: string, data: unknown): ConversationStats {
  if (type === "model_response_complete" || type === "model_response") return { ...stats, turns: stats.turns + 1 };
  if (type !== "token_consumption") return stats;
  const { tokens_in, tokens_out } = (data as { consumption: TokenConsumptionCounter }).consumption;
  return { turns: stats.turns, tokens_in: stats.tokens_in + tokens_in, tokens_out: stats.tokens_out + tokens_out };
}

/** Two counts added up (a turn cut short adds what its trace recorded). */
export function addStats(a: ConversationStats, b: ConversationStats): ConversationStats {
  return { turns: a.turns + b.turns, tokens_in: a.tokens_in + b.tokens_in, tokens_out: a.tokens_out + b.tokens_out };
}
