import { recordFromRow } from "../record-columns.js";
import { encodeCursor } from "./conversation-query.js";
import type { ConversationPage, ConversationStatus, ConversationSummary } from "./types.js";

type Row = Record<string, unknown>;

/** A listing page from the page statement's rows (limit + 1 of them at most) and the totals row. */
export function pageFromRows(rows: Row[], limit: number, totals: Row | undefined): ConversationPage {
  const items: ConversationSummary[] = rows
    .slice(0, limit)
    .map((row) => ({ ...recordFromRow(row), status: String(row.status) as ConversationStatus }));
  const last = items.at(-1);
  return {
    items,
    nextCursor: rows.length > limit && last ? encodeCursor(last) : null,
    total: Number(totals?.n ?? 0),
    tokens: { in: Number(totals?.tokens_in ?? 0), out: Number(totals?.tokens_out ?? 0) },
  };
}
