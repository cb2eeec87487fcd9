/**
 * What every store accepts, decided once (docs/decisions/0011): MemoryStore, SqliteStore and
 * PostgresStore run these checks through the record codec, so they accept and refuse the same
 * input. Each check returns why a value cannot be stored, or undefined when it can.
 *
 * - Messages: the fields Glove's own code reads must have their types (sender, text, the flags,
 *   ids, tool calls and results, content parts); everything else is data, stored as its JSON form
 *   (what `JSON.stringify` makes of it) in every store. Message text may hold any string, NUL
 *   characters and lone surrogates included: JSON escapes them, so they round-trip exactly.
 * - Text kept in columns (session ids, tasks, inbox items, tool names) may not hold NUL characters
 *   or lone surrogates, and keys (ids, tool names) are at most 1024 UTF-8 bytes: ./store-ids.ts.
 * - Token counts are non-negative integers whose running total stays within 2^53 − 1.
 */
import type {
  InboxItem,
  InboxItemUpdate,
  Message,
  PermissionStatus,
  Task,
  TokenConsumptionCounter,
} from "../types/index.js";
import { columnTextProblem, describeValue, keyProblem, quote } from "./store-ids.js";

export const TASK_STATUSES: ReadonlySet<string> = new Set<Task["status"]>(["pending", "in_progress", "completed"]);
export const INBOX_STATUSES: ReadonlySet<string> = new Set<InboxItem["status"]>(["pending", "resolved", "consumed"]);
export const PERMISSION_STATUSES: ReadonlySet<string> = new Set<PermissionStatus>(["granted", "denied", "unset"]);

/** The largest token total a store keeps: past it, numbers stop being exact in JavaScript. */
export const MAX_TOKEN_TOTAL = Number.MAX_SAFE_INTEGER;

// ── Messages ────────────────────────────────────────────────────────────────────────────────

const FLAGS = ["is_compaction", "is_compaction_request", "is_skill_injection", "is_refusal"] as const;
const OPTIONAL_TEXT = ["id", "pre_modified_text", "reasoning_content", "provider"] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A structural object must be plain data: an object without a toJSON method (which could reshape it when stored). */
export function recordProblem(what: string, value: unknown): string | undefined {
  if (!isRecord(value)) return `${what} must be an object, not ${describeValue(value)}`;
  if (typeof value["toJSON"] === "function") return `${what} has a toJSON method; pass plain data`;
  return undefined;
}

function optionalString(what: string, value: unknown): string | undefined {
  return value === undefined || typeof value === "string"
    ? undefined
    : `${what} must be a string when present, not ${describeValue(value)}`;
}

function listProblem(
  what: string,
  value: unknown,
  item: (value: unknown, at: string) => string | undefined,
): string | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) return `${what} must be an array when present, not ${describeValue(value)}`;
  for (let i = 0; i < value.length; i++) {
    const problem = item(value[i], `${what}[${i}]`);
    if (problem) return problem;
  }
  return undefined;
}

function toolCallProblem(value: unknown, at: string): string | undefined {
  const call = value as Record<string, unknown>;
  return (
    recordProblem(at, value) ??
    (typeof call["tool_name"] === "string"
      ? undefined
      : `${at}.tool_name must be a string, not ${describeValue(call["tool_name"])}`) ??
    optionalString(`${at}.id`, call["id"]) ??
    (call["provider_extras"] === undefined
      ? undefined
      : recordProblem(`${at}.provider_extras`, call["provider_extras"]))
  );
}

function reasoningBlockProblem(value: unknown, at: string): string | undefined {
  const block = value as Record<string, unknown>;
  return (
    recordProblem(at, value) ??
    (block["type"] === "thinking" || block["type"] === "redacted_thinking"
      ? undefined
      : `${at}.type must be "thinking" or "redacted_thinking", not ${describeValue(block["type"])}`) ??
    optionalString(`${at}.text`, block["text"]) ??
    optionalString(`${at}.signature`, block["signature"]) ??
    optionalString(`${at}.data`, block["data"]) ??
    optionalString(`${at}.provider`, block["provider"])
  );
}

function toolResultProblem(value: unknown, at: string): string | undefined {
  const r = value as Record<string, unknown>;
  const problem =
    recordProblem(at, value) ??
    (typeof r["tool_name"] === "string"
      ? undefined
      : `${at}.tool_name must be a string, not ${describeValue(r["tool_name"])}`) ??
    optionalString(`${at}.call_id`, r["call_id"]) ??
    recordProblem(`${at}.result`, r["result"]);
  if (problem) return problem;
  const result = r["result"] as Record<string, unknown>;
  return typeof result["status"] === "string"
    ? undefined
    : `${at}.result.status must be a string, not ${describeValue(result["status"])}`;
}

function contentPartProblem(value: unknown, at: string): string | undefined {
  const part = value as Record<string, unknown>;
  return (
    recordProblem(at, value) ??
    (typeof part["type"] === "string"
      ? undefined
      : `${at}.type must be a string, not ${describeValue(part["type"])}`) ??
    optionalString(`${at}.text`, part["text"])
  );
}

/**
 * Why `value` cannot be stored as a message (`what` names it, e.g. "message 2"). Only the fields
 * Glove's code reads are checked; the rest is data.
 */
export function messageProblem(value: unknown, what = "the message"): string | undefined {
  const problem = recordProblem(what, value);
  if (problem) return problem;
  const m = value as Record<string, unknown>;
  if (m["sender"] !== "user" && m["sender"] !== "agent")
    return `${what}.sender must be "user" or "agent", not ${describeValue(m["sender"])}`;
  if (typeof m["text"] !== "string") return `${what}.text must be a string, not ${describeValue(m["text"])}`;
  for (const key of OPTIONAL_TEXT) {
    const p = optionalString(`${what}.${key}`, m[key]);
    if (p) return p;
  }
  for (const flag of FLAGS) {
    const v = m[flag];
    if (v !== undefined && typeof v !== "boolean")
      return `${what}.${flag} must be true or false when present, not ${describeValue(v)}`;
  }
  return (
    (m["provider_extras"] === undefined ? undefined : recordProblem(`${what}.provider_extras`, m["provider_extras"])) ??
    listProblem(`${what}.tool_calls`, m["tool_calls"], toolCallProblem) ??
    listProblem(`${what}.tool_results`, m["tool_results"], toolResultProblem) ??
    listProblem(`${what}.content`, m["content"], contentPartProblem) ??
    listProblem(`${what}.reasoning_blocks`, m["reasoning_blocks"], reasoningBlockProblem)
  );
}

/** Why a batch cannot be appended: not an array, or the first message that cannot be stored. */
export function messagesProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return `appendMessages takes an array of messages, not ${describeValue(value)}`;
  for (let i = 0; i < value.length; i++) {
    const problem = messageProblem(value[i], `message ${i}`);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * `value` as the JSON text every store keeps (what `JSON.stringify` writes), or why it has none
 * (a BigInt, a cycle, a bare function). Data JSON cannot express is stored as JSON writes it: NaN
 * and Infinity as null, undefined array entries as null, undefined keys dropped, Dates as ISO
 * strings; NUL and lone surrogates in strings become escapes, so they round-trip exactly.
 */
export function jsonText(what: string, value: unknown): { json: string } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    return { problem: `${what} is not JSON-serialisable (${error instanceof Error ? error.message : String(error)})` };
  }
  return typeof json === "string" ? { json } : { problem: `${what} has no JSON form` };
}

/** The message as the JSON text every store keeps (or why it has none), as `jsonText` writes it. */
export function messageJson(message: Message): { json: string } | { problem: string } {
  return jsonText("the message", message);
}

// ── Counters ────────────────────────────────────────────────────────────────────────────────

function countProblem(what: string, value: unknown): string | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0
    ? undefined
    : `${what} must be a non-negative integer, not ${describeValue(value)}`;
}

/** Why `args` cannot be added to the token counters. */
export function tokensProblem(args: unknown): string | undefined {
  if (!isRecord(args)) return `addTokens takes { tokens_in, tokens_out }, not ${describeValue(args)}`;
  const a = args as Partial<TokenConsumptionCounter>;
  const problem = countProblem("tokens_in", a.tokens_in) ?? countProblem("tokens_out", a.tokens_out);
  if (problem) return problem;
  return a.tokens_in! + a.tokens_out! > MAX_TOKEN_TOTAL
    ? `tokens_in + tokens_out is past ${MAX_TOKEN_TOTAL}`
    : undefined;
}

/** The refusal for an add that would take the session's total past MAX_TOKEN_TOTAL. */
export function tokenOverflowDetail(current: number, args: TokenConsumptionCounter): string {
  return (
    `adding ${args.tokens_in} + ${args.tokens_out} tokens to the session's ${current} would take its token count past ${MAX_TOKEN_TOTAL}, ` +
    `beyond what reads back exactly; resetCounters() starts again from 0`
  );
}

// ── Tasks, inbox, permissions ───────────────────────────────────────────────────────────────

/** Why `task` cannot be stored. Fields other than id, content, activeForm and status are not kept. */
export function taskProblem(task: unknown): string | undefined {
  const problem = recordProblem("the task", task);
  if (problem) return problem;
  const t = task as Record<string, unknown>;
  const id = typeof t["id"] === "string" ? `task ${quote(t["id"])}` : "the task";
  return (
    keyProblem(`${id}: id`, t["id"]) ??
    columnTextProblem(`${id}: content`, t["content"]) ??
    columnTextProblem(`${id}: activeForm`, t["activeForm"]) ??
    (typeof t["status"] === "string" && TASK_STATUSES.has(t["status"])
      ? undefined
      : `${id}: status must be pending, in_progress or completed, not ${describeValue(t["status"])}`)
  );
}

/** The stored form of a checked task: its four fields, nothing else. */
export function taskRecord(task: Task): Task {
  return { id: task.id, content: task.content, activeForm: task.activeForm, status: task.status };
}

function nullableTextProblem(what: string, value: unknown): string | undefined {
  return value === null || value === undefined ? undefined : columnTextProblem(what, value);
}

/**
 * Why `item` cannot be stored. `response` and `resolved_at` may be left out (stored as null);
 * fields other than those of InboxItem are not kept.
 */
export function inboxItemProblem(item: unknown): string | undefined {
  const problem = recordProblem("the inbox item", item);
  if (problem) return problem;
  const i = item as Record<string, unknown>;
  const id = typeof i["id"] === "string" ? `inbox item ${quote(i["id"])}` : "the inbox item";
  return (
    keyProblem(`${id}: id`, i["id"]) ??
    columnTextProblem(`${id}: tag`, i["tag"]) ??
    columnTextProblem(`${id}: request`, i["request"]) ??
    nullableTextProblem(`${id}: response`, i["response"]) ??
    (typeof i["status"] === "string" && INBOX_STATUSES.has(i["status"])
      ? undefined
      : `${id}: status must be pending, resolved or consumed, not ${describeValue(i["status"])}`) ??
    (typeof i["blocking"] === "boolean"
      ? undefined
      : `${id}: blocking must be true or false, not ${describeValue(i["blocking"])}`) ??
    columnTextProblem(`${id}: created_at`, i["created_at"]) ??
    nullableTextProblem(`${id}: resolved_at`, i["resolved_at"])
  );
}

/** The stored form of a checked inbox item: its fields, response and resolved_at null when left out. */
export function inboxRecord(item: InboxItem): InboxItem {
  return {
    id: item.id,
    tag: item.tag,
    request: item.request,
    response: item.response ?? null,
    status: item.status,
    blocking: item.blocking,
    created_at: item.created_at,
    resolved_at: item.resolved_at ?? null,
  };
}

/** Why `updates` cannot be applied to an inbox item (only status, response and resolved_at change). */
export function inboxUpdateProblem(updates: unknown): string | undefined {
  const problem = recordProblem("the inbox update", updates);
  if (problem) return problem;
  const u = updates as Partial<InboxItemUpdate>;
  if (u.status !== undefined && !(typeof u.status === "string" && INBOX_STATUSES.has(u.status))) {
    return `inbox status must be pending, resolved or consumed, not ${describeValue(u.status)}`;
  }
  return (
    nullableTextProblem("the inbox response", u.response) ?? nullableTextProblem("the inbox resolved_at", u.resolved_at)
  );
}

/** Why `updates` cannot be merged into a task (fields other than content, activeForm and status are ignored). */
export function taskUpdateProblem(updates: unknown): string | undefined {
  return recordProblem("the task update", updates);
}

export function permissionProblem(status: unknown): string | undefined {
  return typeof status === "string" && PERMISSION_STATUSES.has(status)
    ? undefined
    : `permission status must be granted, denied or unset, not ${describeValue(status)}`;
}

export function toolNameProblem(toolName: unknown): string | undefined {
  return keyProblem("the tool name", toolName);
}
