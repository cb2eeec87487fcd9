import { NO_STATS } from "../../conversations/stats.js";
import type { ConversationStats } from "../../storage/types.js";

/**
 * Redis keys of one conversation. The `{id}` hash tag keeps a conversation's keys on one Redis
 * Cluster slot, so its Lua scripts stay atomic there too.
 */
export interface ConversationKeys {
  /** Last event id handed out (INCR in the emit script). */
  seq: string;
  /** The conversation's events: entry `<id>-0` is SSE event `id`. */
  events: string;
  /**
   * `last` (event id), `messageCount` (history length as announced), `turnId`, `turnBase`, emit
   * dedupe fields, and the stats as of `last` (`turns`, `tokensIn`, `tokensOut`).
   */
  state: string;
  /** Text streamed by the model call in progress. */
  streaming: string;
  /** Slot id → WireSlot JSON, and slot id → status. */
  slots: string;
  slotStatus: string;
  /** `<turnId>|<ms>`: the turn queued or running (one per conversation across all instances). */
  turn: string;
  /** The fencing token of the worker running the turn (expires unless renewed). */
  run: string;
  /** Turn id whose abort was asked for while no worker ran it. */
  abort: string;
  /** Hash turn id → attempts started. */
  attempts: string;
  /** Pub/sub channel of the worker running the turn: slot answers and aborts. */
  control: string;
  /** The key remembering which turn a client message id started. */
  clientMessage(clientMessageId: string): string;
}

export function conversationKeys(prefix: string, id: string): ConversationKeys {
  const base = `${prefix}:{${id}}`;
  return {
    seq: `${base}:seq`,
    events: `${base}:events`,
    state: `${base}:state`,
    streaming: `${base}:streaming`,
    slots: `${base}:slots`,
    slotStatus: `${base}:slotstatus`,
    turn: `${base}:turn`,
    run: `${base}:run`,
    abort: `${base}:abort`,
    attempts: `${base}:attempts`,
    control: `${prefix}:ctl:${id}`,
    clientMessage: (clientMessageId) => `${base}:cmid:${clientMessageId}`,
  };
}

/** Every key of a conversation (for DELETE). */
export function allKeys(keys: ConversationKeys): string[] {
  return [
    keys.seq,
    keys.events,
    keys.state,
    keys.streaming,
    keys.slots,
    keys.slotStatus,
    keys.turn,
    keys.run,
    keys.abort,
    keys.attempts,
  ];
}

/** The stats the state hash holds, or `fallback` (the catalog's) when it holds none (Redis lost them, or no turn ran yet). */
export function statsOf(
  state: { turns?: string | null; tokensIn?: string | null; tokensOut?: string | null },
  fallback: ConversationStats | undefined,
): ConversationStats {
  if (state.turns === undefined || state.turns === null) return fallback ?? NO_STATS;
  return {
    turns: Number(state.turns),
    tokens_in: Number(state.tokensIn ?? 0),
    tokens_out: Number(state.tokensOut ?? 0),
  };
}

/** The turn id in a `turn` key's value. */
export function turnIdOf(holder: string | null): string | null {
  if (holder === null) return null;
  const bar = holder.indexOf("|");
  return bar === -1 ? holder : holder.slice(0, bar);
}
