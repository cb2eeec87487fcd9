import { pendingQuestions, storeKeepsWaits, type StoreAdapter } from "glove-core";
import type { ConversationRecord } from "../types.js";
import { checkId, checkLimit, checkOffset, checkQuery, encodeCursor, type CheckedQuery } from "./conversation-query.js";
import { conversationStatus, foldCase } from "./conversation-status.js";
import { MemoryTraceStore } from "./memory-trace-store.js";
import { TotalsCache } from "./totals-cache.js";
import { traceLimits, type TraceLimits } from "./trace-limits.js";
import type {
  ConversationPage,
  ConversationQuery,
  ConversationSummary,
  MessagePage,
  StorageInspector,
} from "./types.js";

/** What the memory inspector reads: the catalog's records and the conversations' stores. */
export interface MemorySource {
  records(): ConversationRecord[];
  /** The conversation's store when it has one (no store is created by reading). */
  existingStore(conversationId: string): StoreAdapter | undefined;
}

/** Storage inspection of memoryStorage: the same answers as the SQL inspectors, computed by scanning. */
export class MemoryInspector implements StorageInspector {
  readonly traces: MemoryTraceStore;
  readonly #totals = new TotalsCache();

  constructor(
    private readonly source: MemorySource,
    limits: Partial<TraceLimits> = {},
  ) {
    this.traces = new MemoryTraceStore(traceLimits(limits));
  }

  async listConversations(query: ConversationQuery): Promise<ConversationPage> {
    const q = checkQuery(query);
    const matching: ConversationSummary[] = [];
    for (const record of this.source.records()) {
      if (!matchesFilters(record, q)) continue;
      const summary = { ...record, status: conversationStatus(record, await this.#waiting(record.id)) };
      if (q.status === undefined || summary.status === q.status) matching.push(summary);
    }
    matching.sort((a, b) => compareDesc(a.updatedAt, b.updatedAt) || compareDesc(a.id, b.id));
    const after = q.after;
    const from = after
      ? matching.filter((c) => c.updatedAt < after.updatedAt || (c.updatedAt === after.updatedAt && c.id < after.id))
      : matching;
    const items = from.slice(0, q.limit);
    const totals = await this.#totals.totals(q, async () => ({
      n: matching.length,
      tokens_in: matching.reduce((sum, c) => sum + (c.stats?.tokens_in ?? 0), 0),
      tokens_out: matching.reduce((sum, c) => sum + (c.stats?.tokens_out ?? 0), 0),
    }));
    const last = items.at(-1);
    return {
      items,
      nextCursor: from.length > q.limit && last ? encodeCursor(last) : null,
      total: Number(totals?.n),
      tokens: { in: Number(totals?.tokens_in), out: Number(totals?.tokens_out) },
    };
  }

  async messages(conversationId: string, page: { offset: number; limit: number }): Promise<MessagePage> {
    const id = checkId(conversationId, "messages: conversationId");
    const offset = checkOffset(page?.offset, "messages: offset");
    const limit = checkLimit(page?.limit, "messages: limit");
    const store = this.source.existingStore(id);
    if (!store) return { messages: [], offset, total: 0 };
    if (store.getMessagePage) return { ...(await store.getMessagePage(offset, limit)), offset };
    const all = await store.getMessages();
    return { messages: all.slice(offset, offset + limit), offset, total: all.length };
  }

  /** A stored question waits in the conversation's store, or below its unanswered subagent calls. */
  async #waiting(conversationId: string): Promise<boolean> {
    const store = this.source.existingStore(conversationId);
    if (!store || !storeKeepsWaits(store)) return false;
    const own = await store.getWaits({ status: "pending" });
    if (own.some((wait) => wait.kind === "question")) return true;
    return (await pendingQuestions(store, await store.getMessages())).length > 0;
  }
}

function matchesFilters(record: ConversationRecord, q: CheckedQuery): boolean {
  if (q.text !== undefined) {
    const needle = foldCase(q.text);
    if (!foldCase(record.title ?? "").includes(needle) && !foldCase(record.id).includes(needle)) return false;
  }
  if (q.id !== undefined && record.id !== q.id) return false;
  if (q.agent !== undefined && record.agent !== q.agent) return false;
  if (q.owner !== undefined && record.owner !== q.owner) return false;
  if (q.updatedFrom !== undefined && record.updatedAt < q.updatedFrom) return false;
  if (q.updatedTo !== undefined && record.updatedAt > q.updatedTo) return false;
  return true;
}

function compareDesc(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}
