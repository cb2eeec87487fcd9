import type { RetentionDatabase, SqlStatement } from "./retention-database.js";
import type { ResolvedRetention } from "./retention-options.js";
import {
  branchesBeyond,
  catalogPage,
  conversationRows,
  deleteIdleCatalogRow,
  lockIdleCatalogRow,
  settledWaitsBefore,
  tracesBefore,
  type CatalogRow,
} from "./retention-sql.js";
import { tableCoverage, type TableCoverage } from "./table-coverage.js";

/** What one retention run did. */
export interface RetentionReport {
  /** False when another instance held the retention lock: this run did nothing. */
  ran: boolean;
  /** Conversations looked at (at most `batchSize`). */
  examined: number;
  /** Inactive conversations deleted with everything they stored. */
  conversationsDeleted: number;
  /** Rows deleted in all tables. */
  rowsDeleted: number;
  /** True when the run reached the end of the catalog (the next run starts from the beginning). */
  wrapped: boolean;
}

/** What a run needs besides the database: the rules, the clock, and which conversations are in memory here. */
export interface RetentionContext {
  db: RetentionDatabase;
  rules: ResolvedRetention;
  /** True for a conversation this process holds in memory: it is only pruned of old traces. */
  inMemory: (conversationId: string) => boolean;
  now: () => number;
}

/**
 * One bounded pass over the catalog, continuing after `cursor` (a conversation id; "" from the
 * start). Each conversation is handled in its own transaction, guarded by its catalog row as it
 * was read: a conversation that started a turn, asked a question or changed since is left alone.
 */
export async function retentionPass(
  ctx: RetentionContext,
  cursor: string,
): Promise<{ report: RetentionReport; cursor: string }> {
  const started = ctx.now();
  const { db, rules } = ctx;
  const coverage = tableCoverage(await db.tables());
  const report: RetentionReport = { ran: true, examined: 0, conversationsDeleted: 0, rowsDeleted: 0, wrapped: false };
  if (!coverage.catalog) return { report: { ...report, wrapped: true }, cursor: "" };
  const rows = (await db.all(catalogPage(db, cursor, rules.batchSize))).map(catalogRow);
  let next = cursor;
  for (const row of rows) {
    if (ctx.now() - started >= rules.timeBudgetMs) return { report, cursor: next };
    report.examined += 1;
    next = row.id;
    const outcome = await handle(ctx, coverage, row);
    report.rowsDeleted += outcome.rows;
    if (outcome.deleted) report.conversationsDeleted += 1;
  }
  if (rows.length < rules.batchSize) return { report: { ...report, wrapped: true }, cursor: "" };
  return { report, cursor: next };
}

async function handle(
  ctx: RetentionContext,
  coverage: TableCoverage,
  row: CatalogRow,
): Promise<{ rows: number; deleted: boolean }> {
  const { db, rules } = ctx;
  const now = ctx.now();
  const iso = (ageMs: number) => new Date(now - ageMs).toISOString();
  let rows = 0;
  if (rules.traceMs !== undefined && coverage.traces)
    rows += (await db.transaction([tracesBefore(db, row, iso(rules.traceMs))], false)) ?? 0;
  if (ctx.inMemory(row.id) || row.runningTurnId !== null) return { rows, deleted: false };

  const inactiveMs = rules.inactiveMs(row.agent);
  const idleFor = now - Date.parse(row.updatedAt);
  if (inactiveMs !== undefined && idleFor >= Math.max(inactiveMs, rules.quietMs)) {
    const guard = deleteIdleCatalogRow(db, coverage, row);
    const deleted = await db.transaction([guard, ...conversationRows(db, coverage, row.id)], true);
    if (deleted !== null) return { rows: rows + deleted, deleted: true };
    return { rows, deleted: false };
  }

  const prunes: SqlStatement[] = [];
  if (rules.settledWaitMs !== undefined && coverage.waits)
    prunes.push(settledWaitsBefore(db, coverage, row.id, iso(rules.settledWaitMs)));
  if (rules.branchesPerConversation !== undefined && coverage.branches && idleFor >= rules.quietMs)
    prunes.push(branchesBeyond(db, row.id, rules.branchesPerConversation));
  if (prunes.length === 0) return { rows, deleted: false };
  const pruned = await db.transaction([lockIdleCatalogRow(db, coverage, row), ...prunes], true);
  // The guard's own row (an update that changes nothing) is not a deleted row.
  return { rows: rows + (pruned === null ? 0 : pruned - 1), deleted: false };
}

function catalogRow(row: Record<string, unknown>): CatalogRow {
  return {
    id: String(row.id),
    agent: String(row.agent),
    updatedAt: String(row.updated_at),
    runningTurnId:
      row.running_turn_id === null || row.running_turn_id === undefined ? null : String(row.running_turn_id),
  };
}
