import type {
  InboxItem,
  InboxItemUpdate,
  Message,
  PermissionStatus,
  StoredWait,
  Task,
  TokenConsumptionCounter,
  WaitFilter,
  WaitOutcome,
} from "../types/index.js";
import { decodeMessage } from "./message-integrity.js";
import { keyProblem, quote } from "./store-ids.js";
import {
  INBOX_STATUSES,
  MAX_TOKEN_TOTAL,
  PERMISSION_STATUSES,
  TASK_STATUSES,
  inboxItemProblem,
  inboxRecord,
  inboxUpdateProblem,
  messageJson,
  messageProblem,
  messagesProblem,
  permissionProblem,
  taskProblem,
  taskRecord,
  taskUpdateProblem,
  tokenOverflowDetail,
  tokensProblem,
  toolNameProblem,
} from "./record-checks.js";
import {
  decodeWait,
  encodeWait,
  encodeWaitOutcome,
  waitFilterProblem,
  type WaitOutcomeRow,
  type WaitRecord,
  type WaitRow,
} from "./wait-records.js";

/**
 * Store error codes: a bad call (e.g. an unknown task id), input no store accepts (refused before
 * anything is written, the same in every store), a row that cannot be read, a schema this version
 * cannot use.
 */
export type StoreErrorCode =
  "GLOVE_STORE" | "GLOVE_STORE_INVALID" | "GLOVE_STORE_CORRUPT" | "GLOVE_STORE_SCHEMA" | "GLOVE_STORE_CONFLICT";

/** A task as stored: one row per task, columns named as in SQL. */
export interface TaskRecord {
  task_id: string;
  content: unknown;
  active_form: unknown;
  status: unknown;
}

/** An inbox item as stored; `blocking` may be a boolean or a 0/1 integer (SQLite has no booleans). */
export interface InboxRecord {
  item_id: string;
  tag: unknown;
  request: unknown;
  response: unknown;
  status: unknown;
  blocking: unknown;
  created_at: unknown;
  resolved_at: unknown;
}

/** A stored message: its position in the conversation and its JSON body. */
export interface MessageRecord {
  seq: number;
  body: unknown;
}

/**
 * A session's bookkeeping row: with the message count and the last compaction's position kept
 * beside the messages, `messageCount` and `getMessagesSinceLastCompaction` need no scan.
 */
export interface SessionRecord {
  message_count: number;
  last_compaction_seq: number | null;
  tokens_in: number;
  tokens_out: number;
  turns: number;
}

/** The bookkeeping of a session with no row yet: nothing stored, nothing counted. */
export function emptySessionRecord(): SessionRecord {
  return { message_count: 0, last_compaction_seq: null, tokens_in: 0, tokens_out: 0, turns: 0 };
}

/** How a record codec reports problems: the store's error and where its rows live. */
export interface RecordCodecOptions {
  /** Builds the store's own error (naming its session) for a detail; the codec throws it. */
  error: (detail: string, code?: StoreErrorCode) => Error;
  /** Where the rows live, named in corrupt-row errors, e.g. "SQLite database ./chat.db". */
  where?: string;
}

/**
 * Turns Glove records into row values and back for a store, checking both ways: what a caller
 * passes (input no store can keep is refused with GLOVE_STORE_INVALID before anything is written;
 * the rules are in ./record-checks.ts and the same for every store) and what a row holds (a
 * hand-edited row is reported as corrupt, never repaired or dropped). Errors are the store's own.
 * Methods on the prototype, not closures: a MemoryStore per conversation holds two fields, not ~26 functions.
 */
export class RecordCodec {
  readonly #error: (detail: string, code?: StoreErrorCode) => Error;
  readonly #at: string;

  constructor({ error, where }: RecordCodecOptions) {
    this.#error = error;
    this.#at = where === undefined ? "" : ` in ${where}`;
  }

  #corrupt(detail: string): Error {
    return this.#error(`${detail}. Nothing was changed.`, "GLOVE_STORE_CORRUPT");
  }

  #invalid(detail: string): Error {
    return this.#error(`${detail}. Nothing was changed.`, "GLOVE_STORE_INVALID");
  }

  #refuse(problem: string | undefined): void {
    if (problem !== undefined) throw this.#invalid(problem);
  }

  /** One message as the JSON text every store keeps, after checking it can be stored. */
  encodeMessage(message: Message, what = "the message"): string {
    this.#refuse(messageProblem(message, what));
    const encoded = messageJson(message);
    if ("problem" in encoded) throw this.#invalid(`cannot store ${what}: ${encoded.problem}`);
    return encoded.json;
  }

  /** A batch as JSON texts; refused whole (nothing written) when any message cannot be stored. */
  encodeMessages(msgs: Message[]): string[] {
    this.#refuse(messagesProblem(msgs));
    return msgs.map((message, i) => this.encodeMessage(message, `message ${i}`));
  }

  /** The counts to add, checked: non-negative integers whose sum stays exact. */
  checkTokens(args: TokenConsumptionCounter): TokenConsumptionCounter {
    this.#refuse(tokensProblem(args));
    return { tokens_in: args.tokens_in, tokens_out: args.tokens_out };
  }

  /** Refuses an add (checked counts) that would take the session's token count, now `current`, past 2^53 − 1. */
  checkTokenTotal(current: number, args: TokenConsumptionCounter): void {
    if (current + args.tokens_in + args.tokens_out > MAX_TOKEN_TOTAL)
      throw this.#invalid(tokenOverflowDetail(current, args));
  }

  /** A task, inbox item or wait id given to an update, checked like the ids stored. */
  checkId(kind: "task" | "inbox item" | "wait", id: string): string {
    this.#refuse(keyProblem(`the ${kind} id`, id));
    return id;
  }

  checkToolName(toolName: string): string {
    this.#refuse(toolNameProblem(toolName));
    return toolName;
  }

  /** The message in a row; the error names where it was found (`in`) and, when that does not, its `table`. */
  decodeMessage(row: MessageRecord, { in: location, table }: { in: string; table?: string }): Message {
    const decoded = decodeMessage(row.body);
    if ("problem" in decoded) {
      throw this.#error(
        `message ${row.seq} in ${location} is corrupt: ${decoded.problem}. ` +
          `Nothing was changed or deleted; repair that row${table === undefined ? "" : ` of ${table}`} (session_id, seq) to continue.`,
        "GLOVE_STORE_CORRUPT",
      );
    }
    return decoded.message;
  }

  /** The task as stored (id, content, activeForm, status; nothing else), after checking it. */
  checkTask(task: Task): Task {
    this.#refuse(taskProblem(task));
    return taskRecord(task);
  }

  /** A list of tasks, each checked, before any is written. */
  checkTasks(tasks: Task[]): Task[] {
    if (!Array.isArray(tasks)) throw this.#invalid(`tasks must be an array, not ${typeof tasks}`);
    return tasks.map((task) => this.checkTask(task));
  }

  decodeTask(row: TaskRecord): Task {
    if (
      typeof row.status !== "string" ||
      !TASK_STATUSES.has(row.status) ||
      typeof row.content !== "string" ||
      typeof row.active_form !== "string"
    ) {
      throw this.#corrupt(`task "${row.task_id}"${this.#at} is corrupt (status ${JSON.stringify(row.status)})`);
    }
    return { id: row.task_id, content: row.content, activeForm: row.active_form, status: row.status as Task["status"] };
  }

  /**
   * `current` with the fields `updates` defines (an undefined field changes nothing; fields other
   * than content, activeForm and status are ignored), checked; the id never changes.
   */
  mergeTaskUpdate(current: Task | undefined, taskId: string, updates: Partial<Task>): Task {
    this.#refuse(taskUpdateProblem(updates));
    if (!current)
      throw this.#error(`cannot update task ${quote(taskId)}: no task has that id. Add it with addTasks first.`);
    const defined = Object.fromEntries(
      Object.entries(updates).filter(([, value]) => value !== undefined),
    ) as Partial<Task>;
    return this.checkTask({ ...current, ...defined, id: taskId });
  }

  checkPermission(status: PermissionStatus): PermissionStatus {
    this.#refuse(permissionProblem(status));
    return status;
  }

  /** The stored permission of a tool; no row means "unset". */
  decodePermission(toolName: string, status: unknown): PermissionStatus {
    if (status === undefined) return "unset";
    if (typeof status !== "string" || !PERMISSION_STATUSES.has(status)) {
      throw this.#corrupt(`the permission of "${toolName}"${this.#at} is corrupt (${JSON.stringify(status)})`);
    }
    return status as PermissionStatus;
  }

  /** The item as stored (response and resolved_at null when left out; no other fields), after checking it. */
  checkInboxItem(item: InboxItem): InboxItem {
    this.#refuse(inboxItemProblem(item));
    return inboxRecord(item);
  }

  /** The fields an inbox update changes (status, response, resolved_at), after checking them. */
  checkInboxUpdate(updates: InboxItemUpdate): InboxItemUpdate {
    this.#refuse(inboxUpdateProblem(updates));
    const out: InboxItemUpdate = {};
    if (updates.status !== undefined) out.status = updates.status;
    if (updates.response !== undefined) out.response = updates.response;
    if (updates.resolved_at !== undefined) out.resolved_at = updates.resolved_at;
    return out;
  }

  /** The wait as the row every store keeps (./wait-records.ts), after checking it. */
  encodeWait(wait: StoredWait): WaitRow {
    const encoded = encodeWait(wait);
    if ("problem" in encoded) throw this.#invalid(encoded.problem);
    return encoded.row;
  }

  /** The columns a settle writes, after checking the outcome (resolved, rejected or cancelled). */
  encodeWaitOutcome(outcome: WaitOutcome): WaitOutcomeRow {
    const encoded = encodeWaitOutcome(outcome);
    if ("problem" in encoded) throw this.#invalid(encoded.problem);
    return encoded.row;
  }

  /** The filter of a wait read, checked; no filter selects every wait. */
  checkWaitFilter(filter: WaitFilter | undefined): WaitFilter {
    this.#refuse(waitFilterProblem(filter));
    return { status: filter?.status, toolCallId: filter?.toolCallId };
  }

  decodeWait(row: WaitRecord): StoredWait {
    const decoded = decodeWait(row);
    if ("problem" in decoded)
      throw this.#corrupt(`wait ${quote(String(row.id))}${this.#at} is corrupt (${decoded.problem})`);
    return decoded.wait;
  }

  /**
   * The refusal of a batch carrying results for calls the stored history already answers
   * (`AppendPlan.late`): a slow writer whose turn another process took over.
   */
  lateResults(callIds: readonly string[]): Error {
    return this.#error(
      `tool results for ${callIds.map(quote).join(", ")} arrive after those calls were answered (another process took this conversation over and recorded them as interrupted). Nothing was written; reload the conversation.`,
      "GLOVE_STORE_CONFLICT",
    );
  }

  /** The error for an inbox update that matched no row. */
  missingInboxItem(itemId: string): Error {
    return this.#error(`cannot update inbox item ${quote(itemId)}: no item has that id in this session.`);
  }

  decodeInboxItem(row: InboxRecord): InboxItem {
    const blocking =
      row.blocking === true || row.blocking === 1
        ? true
        : row.blocking === false || row.blocking === 0
          ? false
          : undefined;
    const ok =
      typeof row.status === "string" &&
      INBOX_STATUSES.has(row.status) &&
      typeof row.tag === "string" &&
      typeof row.request === "string" &&
      (row.response === null || typeof row.response === "string") &&
      blocking !== undefined &&
      typeof row.created_at === "string" &&
      (row.resolved_at === null || typeof row.resolved_at === "string");
    if (!ok) {
      throw this.#corrupt(
        `inbox item "${row.item_id}"${this.#at} is corrupt (status ${JSON.stringify(row.status)}, blocking ${JSON.stringify(row.blocking)})`,
      );
    }
    return {
      id: row.item_id,
      tag: row.tag as string,
      request: row.request as string,
      response: row.response as string | null,
      status: row.status as InboxItem["status"],
      blocking,
      created_at: row.created_at as string,
      resolved_at: row.resolved_at as string | null,
    };
  }
}

/** The checked row encoder and decoder for a store (see RecordCodec). */
export function createRecordCodec(options: RecordCodecOptions): RecordCodec {
  return new RecordCodec(options);
}
