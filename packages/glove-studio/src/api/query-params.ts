import type { ConversationQuery, ConversationStatus } from "glove-server";
import { badQuery } from "../http/responses.js";

const STATUSES: readonly ConversationStatus[] = ["running", "waiting", "error", "idle"];
const MAX_TEXT = 200;

/** An integer query parameter in [min, max], or the fallback when absent. */
export function integerParam(
  params: URLSearchParams,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = params.get(name);
  if (raw === null || raw === "") return fallback;
  if (!/^\d{1,9}$/.test(raw)) throw badQuery(name, `must be a whole number from ${min} to ${max}`);
  const value = Number(raw);
  if (value < min || value > max) throw badQuery(name, `must be from ${min} to ${max}`);
  return value;
}

/** A short text parameter, or undefined when absent or empty. */
export function textParam(params: URLSearchParams, name: string, max = MAX_TEXT): string | undefined {
  const raw = params.get(name);
  if (raw === null || raw.trim() === "") return undefined;
  if (raw.length > max) throw badQuery(name, `must be at most ${max} characters`);
  return raw.trim();
}

const DAY_MS = 86_400_000;
const BARE_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * An inclusive bound on updatedAt as an ISO instant. A bare date is a UTC day: as the lower bound
 * its first millisecond, as the upper bound (`end`) its last — "to 2026-11-26" includes that day.
 */
function dateParam(params: URLSearchParams, name: string, end = false): string | undefined {
  const raw = textParam(params, name);
  if (raw === undefined) return undefined;
  const time = Date.parse(raw);
  if (!/^\d{4}-\d{2}-\d{2}/.test(raw) || Number.isNaN(time))
    throw badQuery(name, "must be an ISO-8601 date, e.g. 2026-11-26 or 2026-11-26T10:00:00Z");
  const bound = end && BARE_DATE.test(raw) ? time + DAY_MS - 1 : time;
  if (!Number.isFinite(new Date(bound).getTime()))
    throw badQuery(name, "must be an ISO-8601 date, e.g. 2026-11-26 or 2026-11-26T10:00:00Z");
  return new Date(bound).toISOString();
}

/** The conversation list's filters from a query string (the page's search and filter fields). */
export function conversationQuery(params: URLSearchParams): ConversationQuery {
  const query: ConversationQuery = { limit: integerParam(params, "limit", 50, 1, 200) };
  for (const name of ["text", "agent", "owner"] as const) {
    const value = textParam(params, name);
    if (value !== undefined) query[name] = value;
  }
  const cursor = textParam(params, "cursor", 4000);
  if (cursor !== undefined) query.cursor = cursor;
  const status = textParam(params, "status");
  if (status !== undefined) {
    if (!(STATUSES as readonly string[]).includes(status))
      throw badQuery("status", `must be one of ${STATUSES.join(", ")}`);
    query.status = status as ConversationStatus;
  }
  const from = dateParam(params, "updatedFrom");
  if (from !== undefined) query.updatedFrom = from;
  const to = dateParam(params, "updatedTo", true);
  if (to !== undefined) query.updatedTo = to;
  return query;
}
