import { GroupCommit, immediateTransaction, type SqliteDatabase, type SqliteStatement } from "glove-sqlite";
import { checkId, checkLimit } from "./conversation-query.js";
import { sqliteBindings, sqliteParam } from "./sqlite-params.js";
import { boundedTrace, type TraceLimits } from "./trace-limits.js";
import { traceRow, traceStatements, traceTableSql, type TraceDialect } from "./trace-sql.js";
import type { TurnTrace, TurnTraceStore } from "./types.js";

const DIALECT: TraceDialect = { table: "gloveserver_turn_traces", param: sqliteParam, collate: "" };
const STATEMENTS = traceStatements(DIALECT);

/** The key of a conversation's trace writes in the group commit. */
const tracesKey = (conversationId: string) => `gloveserver traces ${conversationId}`;

type WriteTrace = (row: ReturnType<typeof traceRow>, conversationId: string) => void;

/** Turn traces in the sqliteStorage file: the table is created by the first save (readers never write). */
export class SqliteTraceStore implements TurnTraceStore {
  #ready = false;
  /** The upsert and the prune in one transaction, prepared once (the server saves every turn). */
  #write: WriteTrace | undefined;
  /** Prepared at the first delete: a server deletes conversations one by one. */
  #delete: SqliteStatement | undefined;

  constructor(
    private readonly db: SqliteDatabase,
    readonly limits: TraceLimits,
  ) {}

  async save(trace: TurnTrace): Promise<void> {
    if (!this.#ready) {
      for (const sql of traceTableSql(DIALECT, "gloveserver_turn_traces_order")) this.db.exec(sql);
      this.#ready = true;
    }
    const row = traceRow(boundedTrace(trace, this.limits));
    const write = (this.#write ??= this.#prepareWrite());
    const { conversationId } = trace;
    // With sqliteStorage's group commit the save shares the turn end's commit with the catalog's update.
    return GroupCommit.write(this.db, () => write(row, conversationId), tracesKey(conversationId), true);
  }

  async get(conversationId: string, turnId: string): Promise<TurnTrace | undefined> {
    const params = [checkId(conversationId, "traces.get: conversationId"), checkId(turnId, "traces.get: turnId")];
    GroupCommit.of(this.db)?.flushFor(tracesKey(params[0]!));
    if (!this.#exists()) return undefined;
    const row = this.db.prepare(STATEMENTS.get).get(sqliteBindings(params)) as { body: string } | undefined;
    return row && (JSON.parse(row.body) as TurnTrace);
  }

  async list(conversationId: string, page: { limit: number; before?: string }): Promise<TurnTrace[]> {
    const id = checkId(conversationId, "traces.list: conversationId");
    const limit = checkLimit(page?.limit, "traces.list: limit");
    const before = page.before === undefined ? undefined : checkId(page.before, "traces.list: before");
    GroupCommit.of(this.db)?.flushFor(tracesKey(id));
    if (!this.#exists()) return [];
    const sql = before === undefined ? STATEMENTS.list : STATEMENTS.listBefore;
    const rows = this.db
      .prepare(sql)
      .all(sqliteBindings(before === undefined ? [id, limit] : [id, limit, before])) as Array<{ body: string }>;
    return rows.map((row) => JSON.parse(row.body) as TurnTrace);
  }

  /** Deletes a conversation's traces (sqliteStorage's delete). */
  delete(conversationId: string): void {
    if (this.#exists()) (this.#delete ??= this.db.prepare(STATEMENTS.delete)).run(sqliteBindings([conversationId]));
  }

  #prepareWrite(): WriteTrace {
    const upsert = this.db.prepare(STATEMENTS.upsert);
    const prune = this.db.prepare(STATEMENTS.prune);
    return immediateTransaction(this.db, (row: ReturnType<typeof traceRow>, conversationId: string) => {
      upsert.run(sqliteBindings(row));
      prune.run(sqliteBindings([conversationId, this.limits.tracesPerConversation - 1]));
    });
  }

  #exists(): boolean {
    if (!this.#ready)
      this.#ready =
        this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(DIALECT.table) !==
        undefined;
    return this.#ready;
  }
}
