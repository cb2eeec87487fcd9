import { checkId, checkLimit } from "./conversation-query.js";
import { boundedTrace, type TraceLimits } from "./trace-limits.js";
import type { TurnTrace, TurnTraceStore } from "./types.js";

/** A stored trace: its JSON, with what orders it kept beside it so ordering parses nothing. */
interface Kept {
  turnId: string;
  startedAt: string;
  body: string;
}

/** Newest first: by start, then turn id (the SQL stores' order). */
const newestFirst = (a: Kept, b: Kept): number =>
  a.startedAt < b.startedAt
    ? 1
    : a.startedAt > b.startedAt
      ? -1
      : a.turnId < b.turnId
        ? 1
        : a.turnId > b.turnId
          ? -1
          : 0;

/**
 * Turn traces in memory (memoryStorage): copies in, copies out, bounded like the SQL stores. A save
 * sorts (no parse) only when the conversation holds more than its bound: a running turn is saved
 * every couple of seconds, and a long conversation keeps up to 200 traces.
 */
export class MemoryTraceStore implements TurnTraceStore {
  readonly #byConversation = new Map<string, Map<string, Kept>>();

  constructor(readonly limits: TraceLimits) {}

  async save(trace: TurnTrace): Promise<void> {
    let traces = this.#byConversation.get(trace.conversationId);
    if (!traces) this.#byConversation.set(trace.conversationId, (traces = new Map()));
    traces.set(trace.turnId, {
      turnId: trace.turnId,
      startedAt: trace.startedAt,
      body: JSON.stringify(boundedTrace(trace, this.limits)),
    });
    if (traces.size <= this.limits.tracesPerConversation) return;
    for (const old of [...traces.values()].sort(newestFirst).slice(this.limits.tracesPerConversation))
      traces.delete(old.turnId);
  }

  async get(conversationId: string, turnId: string): Promise<TurnTrace | undefined> {
    const kept = this.#byConversation
      .get(checkId(conversationId, "traces.get: conversationId"))
      ?.get(checkId(turnId, "traces.get: turnId"));
    return kept === undefined ? undefined : (JSON.parse(kept.body) as TurnTrace);
  }

  async list(conversationId: string, page: { limit: number; before?: string }): Promise<TurnTrace[]> {
    const all = [
      ...(this.#byConversation.get(checkId(conversationId, "traces.list: conversationId"))?.values() ?? []),
    ].sort(newestFirst);
    const limit = checkLimit(page?.limit, "traces.list: limit");
    const at =
      page.before === undefined
        ? -1
        : all.findIndex((kept) => kept.turnId === checkId(page.before, "traces.list: before"));
    if (page.before !== undefined && at < 0) return [];
    return all.slice(at + 1, at + 1 + limit).map((kept) => JSON.parse(kept.body) as TurnTrace);
  }

  delete(conversationId: string): void {
    this.#byConversation.delete(conversationId);
  }
}
