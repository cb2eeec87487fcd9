import { InspectError } from "./inspect-error.js";
import type { ConversationQuery, ConversationStatus } from "./types.js";

/** The largest page of conversations, messages or traces one call returns. */
export const MAX_INSPECT_PAGE = 500;
/** Longest text filter, in characters. */
const MAX_TEXT = 500;
const STATUSES: readonly ConversationStatus[] = ["running", "waiting", "error", "idle"];

/** Where a page starts: after this conversation in the listing's order (updatedAt, then id, both descending). */
export interface ListPosition {
  updatedAt: string;
  id: string;
}

/** A ConversationQuery checked and normalised: bounds as canonical ISO strings, empty filters dropped, the cursor decoded. */
export type CheckedQuery = Omit<ConversationQuery, "cursor"> & { after?: ListPosition };

/** Checks a query from any caller (JSON from a browser included); an InspectError says what is wrong. */
export function checkQuery(query: ConversationQuery): CheckedQuery {
  if (typeof query !== "object" || query === null)
    throw new InspectError("listConversations(query): query must be an object such as { limit: 50 }.");
  const checked: CheckedQuery = { limit: checkLimit(query.limit, "listConversations: limit") };
  const text = optionalString(query.text, "text");
  if (text !== undefined && text.length > MAX_TEXT)
    throw new InspectError(`listConversations: text is longer than ${MAX_TEXT} characters.`);
  if (text) checked.text = text;
  const id = optionalString(query.id, "id");
  if (id) checked.id = id;
  const agent = optionalString(query.agent, "agent");
  if (agent) checked.agent = agent;
  const owner = optionalString(query.owner, "owner");
  if (owner) checked.owner = owner;
  if (query.status !== undefined) {
    if (!STATUSES.includes(query.status))
      throw new InspectError(
        `listConversations: status must be one of ${STATUSES.join(", ")}; got ${JSON.stringify(query.status)}.`,
      );
    checked.status = query.status;
  }
  const from = optionalDate(query.updatedFrom, "updatedFrom");
  if (from) checked.updatedFrom = from;
  const to = optionalDate(query.updatedTo, "updatedTo");
  if (to) checked.updatedTo = to;
  if (query.cursor !== undefined && query.cursor !== null && query.cursor !== "")
    checked.after = decodeCursor(query.cursor);
  return checked;
}

/** A page size: an integer from 1 to MAX_INSPECT_PAGE. */
export function checkLimit(limit: unknown, what: string): number {
  if (!Number.isSafeInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_INSPECT_PAGE) {
    throw new InspectError(`${what} must be an integer from 1 to ${MAX_INSPECT_PAGE}; got ${describe(limit)}.`);
  }
  return limit as number;
}

/** An offset: an integer ≥ 0. */
export function checkOffset(offset: unknown, what: string): number {
  if (!Number.isSafeInteger(offset) || (offset as number) < 0)
    throw new InspectError(`${what} must be an integer ≥ 0; got ${describe(offset)}.`);
  return offset as number;
}

/** An id argument (conversation, turn): a non-empty string. */
export function checkId(id: unknown, what: string): string {
  if (typeof id !== "string" || id.length === 0 || id.length > 1000)
    throw new InspectError(`${what} must be a non-empty string; got ${describe(id)}.`);
  return id;
}

/** The cursor of the page after `last`: opaque to callers (base64url of JSON). */
export function encodeCursor(last: ListPosition): string {
  return Buffer.from(JSON.stringify([last.updatedAt, last.id])).toString("base64url");
}

function decodeCursor(cursor: unknown): ListPosition {
  const refuse = () =>
    new InspectError(
      "listConversations: cursor is not a nextCursor of this listing; start again without one.",
      "GLOVE_INSPECT_CURSOR",
    );
  if (typeof cursor !== "string" || cursor.length > 4000 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw refuse();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw refuse();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || typeof parsed[0] !== "string" || typeof parsed[1] !== "string")
    throw refuse();
  return { updatedAt: parsed[0], id: parsed[1] };
}

function optionalString(value: unknown, what: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string")
    throw new InspectError(`listConversations: ${what} must be a string; got ${describe(value)}.`);
  return value;
}

function optionalDate(value: unknown, what: string): string | undefined {
  const text = optionalString(value, what);
  if (!text) return undefined;
  const time = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(time))
    throw new InspectError(
      `listConversations: ${what} must be an ISO-8601 date such as 2026-01-31T00:00:00Z; got ${JSON.stringify(text.slice(0, 80))}.`,
    );
  return new Date(time).toISOString();
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.slice(0, 80));
  if (typeof value === "number" || typeof value === "boolean" || value === null || value === undefined)
    return String(value);
  return typeof value;
}
