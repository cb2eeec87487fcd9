/**
 * Which strings every store keeps as keys and text columns (docs/decisions/0011 and 0020). Session
 * ids, task ids, inbox item ids and tool names are primary-key columns in the SQL stores, so all
 * stores refuse, with GLOVE_STORE_INVALID, what any of them could not keep as a distinct key:
 *
 * - NUL (PostgreSQL text cannot hold it) and lone surrogates (UTF-8 cannot encode them; the drivers
 *   turn them into U+FFFD, which would merge distinct ids) — in every text column;
 * - keys longer than MAX_KEY_BYTES in UTF-8: a PostgreSQL btree entry holds at most 2704 bytes and
 *   the keys are paired with the session id, so a longer id failed there with a raw driver error.
 */
import type { StoreAdapter, SubAgentStoreOptions } from "../types/index.js";
import { ConfigurationError } from "../errors.js";
import { StoreSessionError } from "./store-session-error.js";

/** The longest key (session id, task or inbox item id, tool name) a store keeps, in UTF-8 bytes. */
export const MAX_KEY_BYTES = 1024;

/** Characters of a value shown in an error message; longer values are cut, so the message stays readable. */
const SHOWN_CHARACTERS = 80;

/** A value as shown in an error message. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "number" || typeof value === "bigint")
    return Object.is(value, -0) ? "-0" : `${value}${typeof value === "bigint" ? "n" : ""}`;
  if (typeof value === "string") return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === "boolean" || value === null) return String(value);
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** A string as shown inside quotes: JSON escapes NUL and lone surrogates, so the message stays printable. */
export function displayText(value: string): string {
  const shown = value.length > SHOWN_CHARACTERS ? `${value.slice(0, SHOWN_CHARACTERS)}…` : value;
  return JSON.stringify(shown).slice(1, -1);
}

/** A string as quoted in error messages (escaped, and cut when long). */
export function quote(value: string): string {
  return `"${displayText(value)}"`;
}

// NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why `value` cannot be kept in a text column: not a string, or holding NUL or a lone surrogate. */
export function columnTextProblem(what: string, value: unknown): string | undefined {
  if (typeof value !== "string") return `${what} must be a string, not ${describeValue(value)}`;
  const found = UNSTORABLE.exec(value);
  if (!found) return undefined;
  const char = found[0];
  return char === "\0"
    ? `${what} contains a NUL character (\\u0000) at index ${found.index}, which PostgreSQL cannot store`
    : `${what} contains a lone surrogate (\\u${char.charCodeAt(0).toString(16)}) at index ${found.index}, which UTF-8 cannot encode`;
}

/** UTF-8 length of a string without lone surrogates (each half of a pair counts 2 of its 4 bytes). */
export function utf8Length(value: string): number {
  let bytes = value.length;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0x800) bytes += unit >= 0xd800 && unit <= 0xdfff ? 1 : 2;
    else if (unit >= 0x80) bytes += 1;
  }
  return bytes;
}

/** Why `value` cannot be a key: not a string fit for a text column, or longer than MAX_KEY_BYTES. */
export function keyProblem(what: string, value: unknown): string | undefined {
  const problem = columnTextProblem(what, value);
  if (problem !== undefined) return problem;
  const bytes = utf8Length(value as string);
  if (bytes <= MAX_KEY_BYTES) return undefined;
  return `${what} is ${bytes} bytes long in UTF-8, more than the ${MAX_KEY_BYTES} a store keeps as a key; use a shorter one (e.g. a hash of it)`;
}

/** Why `value` cannot be a session id: empty, or not fit for a key. */
export function sessionIdProblem(value: unknown): string | undefined {
  if (value === "") return "the session id must not be empty";
  return keyProblem("the session id", value);
}

/**
 * A store's session id, checked (see sessionIdProblem). Refused with GLOVE_STORE_INVALID; `error`
 * builds the store's own error (`displayId` is the id escaped and cut for display), by default a
 * StoreSessionError.
 */
export function requireSessionId(
  storeName: string,
  sessionId: unknown,
  error: (displayId: string, detail: string) => Error = (displayId, detail) =>
    new StoreSessionError(storeName, displayId, detail, "GLOVE_STORE_INVALID"),
): string {
  const problem = sessionIdProblem(sessionId);
  if (problem === undefined) return sessionId as string;
  const displayId = typeof sessionId === "string" ? displayText(sessionId) : String(sessionId);
  throw error(
    displayId,
    `sessionId must be a non-empty string fit for storage: ${problem}. Pass another session id (a UUID will do). Nothing was changed.`,
  );
}

/** Where a sub-store sits, recorded on its session row by the persistent stores. */
export interface SubStoreInfo {
  parentId: string;
  namespace: string;
  durable: boolean;
}

/**
 * The session of a sub-store (`StoreAdapter.createSubAgentStore`), the same in every store:
 * durable, `<parent>::<namespace>`, the same history on every call (and, for persistent stores,
 * in every process); ephemeral, `<parent>::<namespace>~<newId()>`, a new, empty session per call.
 * Takes `createSubAgentStore`'s options as given (the deprecated bare boolean too).
 */
export function subStoreSession(
  parent: Pick<StoreAdapter, "identifier">,
  namespace: string,
  options: SubAgentStoreOptions | boolean | undefined,
  newId: () => string,
): { sessionId: string; child: SubStoreInfo } {
  const durable = isDurable(options);
  const base = `${parent.identifier}::${namespace}`;
  return {
    sessionId: durable ? base : `${base}~${newId()}`,
    child: { parentId: parent.identifier, namespace, durable },
  };
}

/** `createSubAgentStore`'s second argument: options, or the deprecated boolean meaning `durable`. */
function isDurable(options: SubAgentStoreOptions | boolean | undefined): boolean {
  if (options === undefined || typeof options === "boolean") return options ?? false;
  if (
    typeof options !== "object" ||
    options === null ||
    (options.durable !== undefined && typeof options.durable !== "boolean")
  ) {
    throw new ConfigurationError(
      `createSubAgentStore(namespace, options): options must be { durable?: boolean }, not ${describeValue(options)}. Pass { durable: true } for a sub-store that keeps its history, or no options for a new one per call. Nothing was changed.`,
    );
  }
  return options.durable ?? false;
}
