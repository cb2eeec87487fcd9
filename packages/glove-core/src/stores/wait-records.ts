/**
 * Durable questions (`StoredWait`) as every store keeps them: one row per wait, columns named as
 * in SQL, `input` and `value` as JSON text, NULL when absent. MemoryStore keeps the same rows, so
 * all stores accept, refuse and read back the same (docs/decisions/0011):
 *
 * - the wait id, toolCallId, toolName and renderer are keys (./store-ids.ts: no NUL or lone
 *   surrogate, at most 1024 UTF-8 bytes); the timestamps are column text;
 * - `position` is an integer from 0 to 2^31 − 1 (PostgreSQL's INTEGER);
 * - `input` and `value` are data, kept as their JSON form like message bodies (./record-checks.ts
 *   `jsonText`), so NUL and lone surrogates in them round-trip exactly.
 */
import type {
  DisplayStrategy,
  StoredWait,
  StoredWaitKind,
  StoredWaitStatus,
  WaitFilter,
  WaitOutcome,
} from "../types/index.js";
import { columnTextProblem, describeValue, keyProblem, quote } from "./store-ids.js";
import { jsonText, recordProblem } from "./record-checks.js";

export const WAIT_KINDS: ReadonlySet<string> = new Set<StoredWaitKind>(["question", "step"]);
export const WAIT_STATUSES: ReadonlySet<string> = new Set<StoredWaitStatus>([
  "pending",
  "resolved",
  "rejected",
  "cancelled",
]);
const DISPLAY_STRATEGIES: ReadonlySet<string> = new Set<DisplayStrategy>(["stay", "hide-on-complete", "hide-on-new"]);

/** The largest `position` a store keeps: PostgreSQL's INTEGER. */
export const MAX_WAIT_POSITION = 2 ** 31 - 1;

/** A wait as stored: one row, columns named as in SQL; input and value as JSON text, null when absent. */
export interface WaitRow {
  id: string;
  kind: StoredWaitKind;
  tool_call_id: string;
  tool_name: string;
  position: number;
  renderer: string;
  input_json: string | null;
  display_strategy: DisplayStrategy | null;
  status: StoredWaitStatus;
  value_json: string | null;
  created_at: string;
  settled_at: string | null;
}

/** The columns of a wait row, in table order (SQL stores select them by this list). */
export const WAIT_COLUMNS: ReadonlyArray<keyof WaitRow> = [
  "id",
  "kind",
  "tool_call_id",
  "tool_name",
  "position",
  "renderer",
  "input_json",
  "display_strategy",
  "status",
  "value_json",
  "created_at",
  "settled_at",
];

/** A wait row as read back, before it is checked. */
export type WaitRecord = { [K in keyof WaitRow]: unknown };

/** What `settleWait` writes over a pending row. */
export type WaitOutcomeRow = Pick<WaitRow, "status" | "value_json" | "settled_at">;

type Encoded<T> = { row: T } | { problem: string };

/** A JSON value's text, null when it is absent (undefined). */
function dataJson(what: string, value: unknown): { json: string | null } | { problem: string } {
  return value === undefined ? { json: null } : jsonText(what, value);
}

function statusProblem(what: string, value: unknown, allowed: ReadonlySet<string>): string | undefined {
  return typeof value === "string" && allowed.has(value)
    ? undefined
    : `${what} must be one of ${[...allowed].join(", ")}, not ${describeValue(value)}`;
}

/** The wait as the row every store keeps, or why no store keeps it. Fields other than StoredWait's are not kept. */
export function encodeWait(wait: unknown): Encoded<WaitRow> {
  const problem = recordProblem("the wait", wait);
  if (problem) return { problem };
  const w = wait as Record<string, unknown>;
  const name = typeof w["id"] === "string" ? `wait ${quote(w["id"])}` : "the wait";
  const position = w["position"];
  const fieldProblem =
    keyProblem(`${name}: id`, w["id"]) ??
    statusProblem(`${name}: kind`, w["kind"], WAIT_KINDS) ??
    keyProblem(`${name}: toolCallId`, w["toolCallId"]) ??
    keyProblem(`${name}: toolName`, w["toolName"]) ??
    (typeof position === "number" && Number.isInteger(position) && position >= 0 && position <= MAX_WAIT_POSITION
      ? undefined
      : `${name}: position must be an integer from 0 to ${MAX_WAIT_POSITION}, not ${describeValue(position)}`) ??
    keyProblem(`${name}: renderer`, w["renderer"]) ??
    (w["displayStrategy"] === undefined
      ? undefined
      : statusProblem(`${name}: displayStrategy`, w["displayStrategy"], DISPLAY_STRATEGIES)) ??
    statusProblem(`${name}: status`, w["status"], WAIT_STATUSES) ??
    columnTextProblem(`${name}: created_at`, w["created_at"]) ??
    (w["settled_at"] === null || w["settled_at"] === undefined
      ? undefined
      : columnTextProblem(`${name}: settled_at (a string or null)`, w["settled_at"]));
  if (fieldProblem) return { problem: fieldProblem };
  const input = dataJson(`${name}: input`, w["input"]);
  if ("problem" in input) return input;
  const value = dataJson(`${name}: value`, w["value"]);
  if ("problem" in value) return value;
  const checked = wait as StoredWait;
  return {
    row: {
      id: checked.id,
      kind: checked.kind,
      tool_call_id: checked.toolCallId,
      tool_name: checked.toolName,
      position: checked.position + 0, // -0 becomes 0, as SQL keeps it
      renderer: checked.renderer,
      input_json: input.json,
      display_strategy: checked.displayStrategy ?? null,
      status: checked.status,
      value_json: value.json,
      created_at: checked.created_at,
      settled_at: checked.settled_at ?? null,
    },
  };
}

/** The columns `settleWait` writes, or why the outcome cannot be stored (its status must not be pending). */
export function encodeWaitOutcome(outcome: unknown): Encoded<WaitOutcomeRow> {
  const problem = recordProblem("the wait outcome", outcome);
  if (problem) return { problem };
  const o = outcome as Record<string, unknown>;
  const fieldProblem =
    (o["status"] !== "pending" && WAIT_STATUSES.has(o["status"] as string)
      ? undefined
      : `the wait outcome's status must be resolved, rejected or cancelled, not ${describeValue(o["status"])}`) ??
    columnTextProblem("the wait outcome's settled_at", o["settled_at"]);
  if (fieldProblem) return { problem: fieldProblem };
  const value = dataJson("the wait outcome's value", o["value"]);
  if ("problem" in value) return value;
  const checked = outcome as WaitOutcome;
  return { row: { status: checked.status, value_json: value.json, settled_at: checked.settled_at } };
}

/** Why `filter` cannot select waits. */
export function waitFilterProblem(filter: unknown): string | undefined {
  if (filter === undefined) return undefined;
  const problem = recordProblem("the wait filter", filter);
  if (problem) return problem;
  const f = filter as WaitFilter;
  return (
    (f.status === undefined ? undefined : statusProblem("the wait filter's status", f.status, WAIT_STATUSES)) ??
    (f.toolCallId === undefined ? undefined : keyProblem("the wait filter's toolCallId", f.toolCallId))
  );
}

/** Whether a stored row passes `filter` (already checked): for stores that filter in memory. */
export function waitMatches(row: Pick<WaitRow, "status" | "tool_call_id">, filter: WaitFilter | undefined): boolean {
  return (
    (filter?.status === undefined || row.status === filter.status) &&
    (filter?.toolCallId === undefined || row.tool_call_id === filter.toolCallId)
  );
}

function parseData(what: string, text: unknown): { value: unknown } | { problem: string } {
  if (text === null) return { value: undefined };
  if (typeof text !== "string") return { problem: `${what} is ${describeValue(text)}, not JSON text` };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { problem: `${what} is not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
}

function isText(value: unknown): value is string {
  return typeof value === "string";
}

/** The wait a stored row holds, or why the row is corrupt. `input` is always present; `value` and `displayStrategy` only when stored. */
export function decodeWait(row: WaitRecord): { wait: StoredWait } | { problem: string } {
  const { kind, status, position, display_strategy: strategy, settled_at: settledAt } = row;
  const ok =
    isText(row.id) &&
    isText(kind) &&
    WAIT_KINDS.has(kind) &&
    isText(status) &&
    WAIT_STATUSES.has(status) &&
    isText(row.tool_call_id) &&
    isText(row.tool_name) &&
    isText(row.renderer) &&
    typeof position === "number" &&
    Number.isInteger(position) &&
    position >= 0 &&
    (strategy === null || (isText(strategy) && DISPLAY_STRATEGIES.has(strategy))) &&
    isText(row.created_at) &&
    (settledAt === null || isText(settledAt));
  if (!ok)
    return {
      problem: `kind ${describeValue(kind)}, status ${describeValue(status)}, position ${describeValue(position)}`,
    };
  const input = parseData("input_json", row.input_json);
  if ("problem" in input) return input;
  const value = parseData("value_json", row.value_json);
  if ("problem" in value) return value;
  return {
    wait: {
      id: row.id as string,
      kind: kind as StoredWaitKind,
      toolCallId: row.tool_call_id as string,
      toolName: row.tool_name as string,
      position: position as number,
      renderer: row.renderer as string,
      input: input.value,
      ...(strategy === null ? {} : { displayStrategy: strategy as DisplayStrategy }),
      status: status as StoredWaitStatus,
      ...(value.value === undefined ? {} : { value: value.value }),
      created_at: row.created_at as string,
      settled_at: settledAt as string | null,
    },
  };
}
