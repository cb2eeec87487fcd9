import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { api, type ConversationPage } from "../api.js";
import { dayEnd, dayStart } from "../parts/day-bounds.js";
import { short, tokens, when } from "../parts/format.js";
import { StatusBadge } from "../parts/status-badge.js";

type Row = ConversationPage["items"][number];
const PAGE = 100;
type Filters = Record<"text" | "agent" | "owner" | "status" | "updatedFrom" | "updatedTo", string>;
const EMPTY: Filters = { text: "", agent: "", owner: "", status: "", updatedFrom: "", updatedTo: "" };

/** How often the list reads its first page again. */
const LIST_REFRESH_MS = 5000;

/** The filters as the API's parameters; the date fields are the viewer's days, sent as the instants that begin and end them. */
function queryOf(filters: Filters): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const field of ["text", "agent", "owner", "status"] as const)
    if (filters[field]) out.push([field, filters[field]]);
  const from = dayStart(filters.updatedFrom);
  const to = dayEnd(filters.updatedTo);
  if (from) out.push(["updatedFrom", from]);
  if (to) out.push(["updatedTo", to]);
  return out;
}

/** Every conversation, filtered, with counts and token totals; a virtualised list that pages as you scroll. */
export function ConversationList() {
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const [rows, setRows] = useState<Row[]>([]);
  const [page, setPage] = useState<Pick<ConversationPage, "total" | "tokens" | "nextCursor"> | undefined>();
  const [error, setError] = useState<string | undefined>();
  const loading = useRef(false);
  const rowCount = useRef(0);
  rowCount.current = rows.length;
  const generation = useRef(0);

  const load = useCallback(
    async (cursor: string | null, reset: boolean) => {
      if (loading.current && !reset) return;
      loading.current = true;
      const mine = reset ? ++generation.current : generation.current;
      const query = new URLSearchParams({ limit: String(PAGE) });
      for (const [name, value] of queryOf(applied)) query.set(name, value);
      if (cursor) query.set("cursor", cursor);
      try {
        const next = await api.conversations(query);
        if (mine !== generation.current) return;
        setRows((old) => (reset ? next.items : old.concat(next.items)));
        setPage(next);
        setError(undefined);
      } catch (e) {
        setError((e as Error).message);
      } finally {
        if (mine === generation.current) loading.current = false;
      }
    },
    [applied],
  );

  useEffect(() => {
    void load(null, true);
  }, [load]);

  // New conversations and changed statuses show up by themselves: the first page is read again
  // now and then, and merged in front of what was loaded further down.
  const refreshTop = useCallback(async () => {
    if (loading.current || document.visibilityState !== "visible") return;
    const query = new URLSearchParams({ limit: String(PAGE) });
    for (const [name, value] of queryOf(applied)) query.set(name, value);
    const mine = generation.current;
    try {
      const next = await api.conversations(query);
      if (mine !== generation.current) return;
      const fresh = new Set(next.items.map((row) => row.id));
      if (rowCount.current <= PAGE) {
        setRows(next.items);
        setPage(next);
      } else {
        // Pages further down stay; the list goes on from where they ended.
        setRows((old) => next.items.concat(old.slice(PAGE).filter((row) => !fresh.has(row.id))));
        setPage((old) => ({ ...next, nextCursor: old?.nextCursor ?? null }));
      }
      setError(undefined);
    } catch {
      // The next round tries again; a refresh failing says nothing new.
    }
  }, [applied]);
  useEffect(() => {
    const timer = setInterval(() => void refreshTop(), LIST_REFRESH_MS);
    return () => clearInterval(timer);
  }, [refreshTop]);

  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 56,
    overscan: 10,
  });
  const items = virtual.getVirtualItems();
  const last = items.at(-1)?.index ?? 0;
  useEffect(() => {
    if (page?.nextCursor && last >= rows.length - 20) void load(page.nextCursor, false);
  }, [last, rows.length, page?.nextCursor, load]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setApplied(filters);
  };
  const field = (name: keyof Filters, label: string, type = "text") => (
    <label>
      {label}
      <input type={type} value={filters[name]} onChange={(e) => setFilters({ ...filters, [name]: e.target.value })} />
    </label>
  );

  return (
    <section className="list-view">
      <form className="filters" onSubmit={submit} aria-label="Filters">
        {field("text", "Search")}
        {field("agent", "Agent")}
        {field("owner", "Owner")}
        <label>
          Status
          <select value={filters.status} onChange={(e) => setFilters({ ...filters, status: e.target.value })}>
            <option value="">any</option>
            <option value="running">running</option>
            <option value="waiting">waiting for a person</option>
            <option value="error">errors</option>
            <option value="idle">idle</option>
          </select>
        </label>
        {field("updatedFrom", "Updated from", "date")}
        {field("updatedTo", "to", "date")}
        <button type="submit">Apply</button>
      </form>
      {page && (
        <p className="totals" data-testid="totals">
          <strong>{page.total.toLocaleString("en-US")}</strong> {page.total === 1 ? "conversation" : "conversations"} ·
          tokens in {tokens(page.tokens.in)} · out {tokens(page.tokens.out)}
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="rows" ref={scroller} data-testid="conversation-rows">
        <div style={{ height: virtual.getTotalSize(), position: "relative" }}>
          {items.map((item) => {
            const row = rows[item.index]!;
            return (
              <a
                key={row.id}
                href={`#/c/${encodeURIComponent(row.id)}`}
                className="row"
                data-testid="conversation-row"
                style={{
                  position: "absolute",
                  top: 0,
                  left: 0,
                  right: 0,
                  height: item.size,
                  transform: `translateY(${item.start}px)`,
                }}
              >
                <span className="title">{row.title ?? "(untitled)"}</span>
                <StatusBadge status={row.status} />
                <span className="muted">{row.agent}</span>
                <span className="muted">{row.owner}</span>
                <span className="muted">{when(row.updatedAt)}</span>
                <span className="muted">
                  {row.stats ? `${tokens(row.stats.tokens_in)} / ${tokens(row.stats.tokens_out)} tokens` : ""}
                </span>
                <code className="muted">{short(row.id)}</code>
              </a>
            );
          })}
        </div>
      </div>
      {page && rows.length === 0 && <p className="muted">No conversations match.</p>}
    </section>
  );
}
