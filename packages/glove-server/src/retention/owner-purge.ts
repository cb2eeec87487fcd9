import type { RetentionDatabase } from "./retention-database.js";
import { conversationRows, deleteCatalogRow, ownerPage } from "./retention-sql.js";
import { tableCoverage } from "./table-coverage.js";

/** What `purgeOwner` deleted. */
export interface OwnerPurgeReport {
  conversations: number;
  /** Rows deleted in all tables. */
  rows: number;
}

/**
 * Deletes every conversation `owner` has, with every row of it in every covered table, one
 * conversation per transaction. `forget` runs first for each (drops it from memory, ending a
 * running turn), so nothing writes it back.
 */
export async function purgeOwnerRows(
  db: RetentionDatabase,
  owner: string,
  forget: (conversationId: string) => Promise<void>,
): Promise<OwnerPurgeReport> {
  const coverage = tableCoverage(await db.tables());
  const report: OwnerPurgeReport = { conversations: 0, rows: 0 };
  if (!coverage.catalog) return report;
  for (;;) {
    const ids = (await db.all(ownerPage(db, owner, 100))).map((row) => String(row.id));
    if (ids.length === 0) return report;
    for (const id of ids) {
      await forget(id);
      report.rows +=
        (await db.transaction([deleteCatalogRow(db, id), ...conversationRows(db, coverage, id)], false)) ?? 0;
      report.conversations += 1;
    }
  }
}
