import type { Pool } from "pg";
import { readMessagePage } from "./drivers.js";
import { pageStatement, totalsStatement, type CatalogDialect, type Statement } from "../inspect/catalog-sql.js";
import { checkId, checkLimit, checkOffset, checkQuery } from "../inspect/conversation-query.js";
import { pageFromRows } from "../inspect/listing-page.js";
import { TotalsCache } from "../inspect/totals-cache.js";
import { traceLimits, type TraceLimits } from "../inspect/trace-limits.js";
import type { ConversationPage, ConversationQuery, MessagePage, StorageInspector } from "../inspect/types.js";
import { PostgresTraceStore } from "./postgres-trace-store.js";

/** `$1`, `$2` …: PostgreSQL's placeholders. */
export const postgresParam = (n: number): string => `$${n}`;

/**
 * Storage inspection over postgresStorage's schema: paged listings on indexed orders, message
 * pages by `seq` range, turn traces. Reads only (a read-only transaction or role is fine), except
 * the traces' `save`, which the server uses; tables missing from a fresh schema read as empty.
 */
export class PostgresInspector implements StorageInspector {
  readonly traces: PostgresTraceStore;
  readonly #totals = new TotalsCache();

  constructor(
    private readonly pool: Pool,
    private readonly schema: string,
    limits: Partial<TraceLimits> = {},
  ) {
    this.traces = new PostgresTraceStore(pool, schema, traceLimits(limits));
  }

  async listConversations(query: ConversationQuery): Promise<ConversationPage> {
    const checked = checkQuery(query);
    const { rows } = await this.pool.query<{ catalog: string | null; waits: string | null }>(
      "SELECT to_regclass($1)::text AS catalog, to_regclass($2)::text AS waits",
      [`${this.schema}.gloveserver_conversations`, `${this.schema}.glove_waits`],
    );
    if (!rows[0]?.catalog) return { items: [], nextCursor: null, total: 0, tokens: { in: 0, out: 0 } };
    const dialect: CatalogDialect = {
      catalog: `${this.schema}.gloveserver_conversations`,
      waits: rows[0].waits ? `${this.schema}.glove_waits` : null,
      param: postgresParam,
      find: "strpos",
      collate: ` COLLATE "C"`,
    };
    const [page, totals] = await Promise.all([
      this.#all(pageStatement(dialect, checked)),
      this.#totals.totals(checked, async () => (await this.#all(totalsStatement(dialect, checked)))[0]),
    ]);
    return pageFromRows(page, checked.limit, totals);
  }

  async messages(conversationId: string, page: { offset: number; limit: number }): Promise<MessagePage> {
    const id = checkId(conversationId, "messages: conversationId");
    const offset = checkOffset(page?.offset, "messages: offset");
    const limit = checkLimit(page?.limit, "messages: limit");
    const { messages, total } = await readMessagePage({
      pool: this.pool,
      schema: this.schema,
      sessionId: id,
      offset,
      limit,
    });
    return { messages, offset, total };
  }

  async #all({ sql, params }: Statement): Promise<Array<Record<string, unknown>>> {
    return (await this.pool.query(sql, params)).rows as Array<Record<string, unknown>>;
  }
}
