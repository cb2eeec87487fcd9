import type { CheckedQuery } from "./conversation-query.js";

type Row = Record<string, unknown>;

/** How long a walk's pages reuse the totals its first page counted. */
const TOTALS_TTL_MS = 30_000;
const MAX_ENTRIES = 100;

/**
 * The totals (count and token sums) of the filters a listing walk started with, reused by the
 * pages its cursors fetch: counting is a scan of every matching row, a page is an index range. A
 * first page (no cursor) always counts afresh, so a refresh is exact.
 */
export class TotalsCache {
  readonly #entries = new Map<string, { at: number; totals: Row | undefined }>();

  async totals(query: CheckedQuery, count: () => Promise<Row | undefined>): Promise<Row | undefined> {
    const { after: _after, limit: _limit, ...filters } = query;
    const key = JSON.stringify(filters);
    const cached = this.#entries.get(key);
    if (query.after && cached && Date.now() - cached.at < TOTALS_TTL_MS) return cached.totals;
    const totals = await count();
    this.#entries.delete(key);
    this.#entries.set(key, { at: Date.now(), totals });
    if (this.#entries.size > MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
    return totals;
  }
}
