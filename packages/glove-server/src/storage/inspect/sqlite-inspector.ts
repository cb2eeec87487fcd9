import { GroupCommit, readMessagePage, type SqliteDatabase } from "glove-sqlite";
import { pageStatement, totalsStatement, type CatalogDialect, type Statement } from "./catalog-sql.js";
import { checkId, checkLimit, checkOffset, checkQuery } from "./conversation-query.js";
import { pageFromRows } from "./listing-page.js";
import { sqliteBindings, sqliteParam } from "./sqlite-params.js";
import { traceLimits, type TraceLimits } from "./trace-limits.js";
import { SqliteTraceStore } from "./sqlite-trace-store.js";
import { TotalsCache } from "./totals-cache.js";
import type { ConversationPage, ConversationQuery, MessagePage, StorageInspector } from "./types.js";

/** The catalog table of sqliteStorage (not "glove_…": glove-sqlite owns those names). */
export const SQLITE_CATALOG_TABLE = "gloveserver_conversations";

/**
 * Storage inspection over a sqliteStorage file: paged listings with indexed orders, message pages
 * by `seq` range, turn traces. It only reads (a read-only handle is fine) except for the traces'
 * `save`, which the server uses; tables missing from a fresh file read as empty.
 */
export class SqliteInspector implements StorageInspector {
  readonly traces: SqliteTraceStore;
  readonly #totals = new TotalsCache();

  constructor(
    private readonly db: SqliteDatabase,
    limits: Partial<TraceLimits> = {},
  ) {
    this.traces = new SqliteTraceStore(db, traceLimits(limits));
  }

  async listConversations(query: ConversationQuery): Promise<ConversationPage> {
    const checked = checkQuery(query);
    GroupCommit.of(this.db)?.flush(); // writes queued before this read are in what it reads
    if (!this.#hasTable(SQLITE_CATALOG_TABLE))
      return { items: [], nextCursor: null, total: 0, tokens: { in: 0, out: 0 } };
    const dialect: CatalogDialect = {
      catalog: SQLITE_CATALOG_TABLE,
      waits: this.#hasTable("glove_waits") ? "glove_waits" : null,
      param: sqliteParam,
      find: "instr",
      collate: "",
    };
    const rows = this.#all(pageStatement(dialect, checked));
    const totals = await this.#totals.totals(checked, async () => this.#all(totalsStatement(dialect, checked))[0]);
    return pageFromRows(rows, checked.limit, totals);
  }

  async messages(conversationId: string, page: { offset: number; limit: number }): Promise<MessagePage> {
    const id = checkId(conversationId, "messages: conversationId");
    const offset = checkOffset(page?.offset, "messages: offset");
    const limit = checkLimit(page?.limit, "messages: limit");
    const { messages, total } = readMessagePage({ database: this.db, sessionId: id, offset, limit });
    return { messages, offset, total };
  }

  #all({ sql, params }: Statement): Array<Record<string, unknown>> {
    return this.db.prepare(sql).all(sqliteBindings(params)) as Array<Record<string, unknown>>;
  }

  #hasTable(name: string): boolean {
    return this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
  }
}
