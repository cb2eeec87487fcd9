import type { Pool } from "pg";
import { checkId, checkLimit } from "../inspect/conversation-query.js";
import { boundedTrace, type TraceLimits } from "../inspect/trace-limits.js";
import { traceRow, traceStatements, traceTableSql, type TraceDialect } from "../inspect/trace-sql.js";
import type { TurnTrace, TurnTraceStore } from "../inspect/types.js";
import { createUnderLock } from "./pool-helpers.js";

/** Turn traces in `<schema>.gloveserver_turn_traces`: created by the first save (readers never write). */
export class PostgresTraceStore implements TurnTraceStore {
  readonly #dialect: TraceDialect;
  readonly #sql: ReturnType<typeof traceStatements>;
  #ready: Promise<void> | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly schema: string,
    readonly limits: TraceLimits,
  ) {
    this.#dialect = { table: `${schema}.gloveserver_turn_traces`, param: (n) => `$${n}`, collate: ` COLLATE "C"` };
    this.#sql = traceStatements(this.#dialect);
  }

  async save(trace: TurnTrace): Promise<void> {
    await this.#create();
    // Two statements, each atomic, without BEGIN and COMMIT around them (two round trips less per
    // turn): a prune that did not run after its upsert (a dropped connection) runs at the next save.
    await this.pool.query(this.#sql.upsert, traceRow(boundedTrace(trace, this.limits)));
    await this.pool.query(this.#sql.prune, [trace.conversationId, this.limits.tracesPerConversation - 1]);
  }

  async get(conversationId: string, turnId: string): Promise<TurnTrace | undefined> {
    const params = [checkId(conversationId, "traces.get: conversationId"), checkId(turnId, "traces.get: turnId")];
    if (!(await this.#exists())) return undefined;
    const { rows } = await this.pool.query<{ body: string }>(this.#sql.get, params);
    return rows[0] && (JSON.parse(rows[0].body) as TurnTrace);
  }

  async list(conversationId: string, page: { limit: number; before?: string }): Promise<TurnTrace[]> {
    const id = checkId(conversationId, "traces.list: conversationId");
    const limit = checkLimit(page?.limit, "traces.list: limit");
    const before = page.before === undefined ? undefined : checkId(page.before, "traces.list: before");
    if (!(await this.#exists())) return [];
    const { rows } =
      before === undefined
        ? await this.pool.query<{ body: string }>(this.#sql.list, [id, limit])
        : await this.pool.query<{ body: string }>(this.#sql.listBefore, [id, limit, before]);
    return rows.map((row) => JSON.parse(row.body) as TurnTrace);
  }

  /** Deletes a conversation's traces (postgresStorage's delete). */
  async delete(conversationId: string): Promise<void> {
    if (await this.#exists()) await this.pool.query(this.#sql.delete, [conversationId]);
  }

  async #exists(): Promise<boolean> {
    const { rows } = await this.pool.query<{ t: string | null }>("SELECT to_regclass($1)::text AS t", [
      this.#dialect.table,
    ]);
    return rows[0]?.t != null;
  }

  #create(): Promise<void> {
    this.#ready ??= createUnderLock(
      this.pool,
      this.schema,
      traceTableSql(this.#dialect, "gloveserver_turn_traces_order"),
    );
    this.#ready.catch(() => (this.#ready = undefined));
    return this.#ready;
  }
}
