import { checkId, checkLimit } from "./conversation-query.js";
import { boundedTrace, type TraceLimits } from "./trace-limits.js";
import type { TurnTrace, TurnTraceStore } from "./types.js";

/** Turn traces in memory (memoryStorage): copies in, copies out, bounded like the SQL stores. */
export class MemoryTraceStore implements TurnTraceStore {
  readonly #byConversation = new Map<string, Map<string, string>>();

  constructor(private readonly limits: TraceLimits) {}

  async save(trace: TurnTrace): Promise<void> {
    let traces = this.#byConversation.get(trace.conversationId);
    if (!traces) this.#byConversation.set(trace.conversationId, (traces = new Map()));
    traces.set(trace.turnId, JSON.stringify(boundedTrace(trace, this.limits)));
    const kept = this.#newestFirst(trace.conversationId);
    for (const old of kept.slice(this.limits.tracesPerConversation)) traces.delete(old.turnId);
  }

  async get(conversationId: string, turnId: string): Promise<TurnTrace | undefined> {
    const body = this.#byConversation.get(checkId(conversationId, "traces.get: conversationId"))?.get(checkId(turnId, "traces.get: turnId"));
    return body === undefined ? undefined : (JSON.parse(body) as TurnTrace);
  }

  async list(conversationId: string, page: { limit: number; before?: string }): Promise<TurnTrace[]> {
    const all = this.#newestFirst(checkId(conversationId, "traces.list: conversationId"));
    const limit = checkLimit(page?.limit, "traces.list: limit");
    if (page.before === undefined) return all.slice(0, limit);
    const at = all.findIndex((trace) => trace.turnId === checkId(page.before, "traces.list: before"));
    return at < 0 ? [] : all.slice(at + 1, at + 1 + limit);
  }

  delete(conversationId: string): void {
    this.#byConversation.delete(conversationId);
  }

  #newestFirst(conversationId: string): TurnTrace[] {
    const traces = [...(this.#byConversation.get(conversationId)?.values() ?? [])].map((body) => JSON.parse(body) as TurnTrace);
    return traces.sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : a.turnId < b.turnId ? 1 : a.turnId > b.turnId ? -1 : 0));
  }
}
