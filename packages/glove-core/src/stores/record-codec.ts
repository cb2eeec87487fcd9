import type { InboxItem, InboxItemUpdate, Message, PermissionStatus, StoreAdapter, Task } from "../types/index.js";
import { decodeMessage } from "./message-integrity.js";

/** Store error codes: a bad call, a row that cannot be read, a schema this version cannot use. */
export type StoreErrorCode = "GLOVE_STORE" | "GLOVE_STORE_CORRUPT" | "GLOVE_STORE_SCHEMA";

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

export interface RecordCodecOptions {
  /** Builds the store's own error (naming its session) for a detail; the codec throws it. */
  error: (detail: string, code?: StoreErrorCode) => Error;
  /** Where the rows live, named in corrupt-row errors, e.g. "SQLite database ./chat.db". */
  where?: string;
}

const TASK_STATUSES: ReadonlySet<string> = new Set<Task["status"]>(["pending", "in_progress", "completed"]);
const INBOX_STATUSES: ReadonlySet<string> = new Set<InboxItem["status"]>(["pending", "resolved", "consumed"]);
const PERMISSION_STATUSES: ReadonlySet<string> = new Set<PermissionStatus>(["granted", "denied", "unset"]);

/**
 * Turns Glove records into row values and back for a persistent store, checking both ways: what
 * a caller passes (an unknown status is refused before anything is written) and what a row holds
 * (a hand-edited row is reported as corrupt, never repaired or dropped). Errors are the store's own.
 */
export function createRecordCodec({ error, where }: RecordCodecOptions) {
  const at = where === undefined ? "" : ` in ${where}`;
  const corrupt = (detail: string) => error(`${detail}. Nothing was changed.`, "GLOVE_STORE_CORRUPT");

  return {
    /** A message body as JSON text. */
    encodeMessage(message: Message): string {
      try {
        return JSON.stringify(message);
      } catch (cause) {
        throw error(`cannot store a message that is not JSON-serialisable: ${String(cause)}`);
      }
    },

    /** The message in a row; the error names where it was found (`in`) and, when that does not, its `table`. */
    decodeMessage(row: MessageRecord, { in: location, table }: { in: string; table?: string }): Message {
      const decoded = decodeMessage(row.body);
      if ("problem" in decoded) {
        throw error(
          `message ${row.seq} in ${location} is corrupt: ${decoded.problem}. ` +
            `Nothing was changed or deleted; repair that row${table === undefined ? "" : ` of ${table}`} (session_id, seq) to continue.`,
          "GLOVE_STORE_CORRUPT",
        );
      }
      return decoded.message;
    },

    /** The task itself, after checking its status. */
    checkTask(task: Task): Task {
      if (!TASK_STATUSES.has(task.status)) {
        throw error(`task "${task.id}" has status ${JSON.stringify(task.status)}; expected pending, in_progress or completed.`);
      }
      return task;
    },

    decodeTask(row: TaskRecord): Task {
      if (typeof row.status !== "string" || !TASK_STATUSES.has(row.status) || typeof row.content !== "string" || typeof row.active_form !== "string") {
        throw corrupt(`task "${row.task_id}"${at} is corrupt (status ${JSON.stringify(row.status)})`);
      }
      return { id: row.task_id, content: row.content, activeForm: row.active_form, status: row.status as Task["status"] };
    },

    /** `current` with the fields `updates` defines (an undefined field changes nothing); the id never changes. */
    mergeTaskUpdate(current: Task | undefined, taskId: string, updates: Partial<Task>): Task {
      if (!current) throw error(`cannot update task "${taskId}": no task has that id. Add it with addTasks first.`);
      const defined = Object.fromEntries(Object.entries(updates).filter(([, value]) => value !== undefined)) as Partial<Task>;
      return { ...current, ...defined, id: taskId };
    },

    checkPermission(status: PermissionStatus): PermissionStatus {
      if (!PERMISSION_STATUSES.has(status)) {
        throw error(`permission status must be granted, denied or unset, not ${JSON.stringify(status)}.`);
      }
      return status;
    },

    /** The stored permission of a tool; no row means "unset". */
    decodePermission(toolName: string, status: unknown): PermissionStatus {
      if (status === undefined) return "unset";
      if (typeof status !== "string" || !PERMISSION_STATUSES.has(status)) {
        throw corrupt(`the permission of "${toolName}"${at} is corrupt (${JSON.stringify(status)})`);
      }
      return status as PermissionStatus;
    },

    checkInboxItem(item: InboxItem): InboxItem {
      if (!INBOX_STATUSES.has(item.status)) throw error(`inbox item "${item.id}" has status ${JSON.stringify(item.status)}.`);
      return item;
    },

    checkInboxUpdate(updates: InboxItemUpdate): InboxItemUpdate {
      if (updates.status !== undefined && !INBOX_STATUSES.has(updates.status)) {
        throw error(`inbox status must be pending, resolved or consumed, not ${JSON.stringify(updates.status)}.`);
      }
      return updates;
    },

    /** The error for an inbox update that matched no row. */
    missingInboxItem(itemId: string): Error {
      return error(`cannot update inbox item "${itemId}": no item has that id in this session.`);
    },

    decodeInboxItem(row: InboxRecord): InboxItem {
      const blocking = row.blocking === true || row.blocking === 1 ? true : row.blocking === false || row.blocking === 0 ? false : undefined;
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
        throw corrupt(`inbox item "${row.item_id}"${at} is corrupt (status ${JSON.stringify(row.status)}, blocking ${JSON.stringify(row.blocking)})`);
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
    },
  };
}

export type RecordCodec = ReturnType<typeof createRecordCodec>;

/** A store's session id, checked: a non-empty string. */
export function requireSessionId(storeName: string, sessionId: unknown): string {
  if (typeof sessionId !== "string" || sessionId.length === 0) {
    throw new TypeError(`${storeName}: sessionId must be a non-empty string.`);
  }
  return sessionId;
}

/** Where a sub-store of a persistent store sits, recorded on its session row. */
export interface SubStoreInfo {
  parentId: string;
  namespace: string;
  durable: boolean;
}

/**
 * The session of a sub-store (`StoreAdapter.createSubAgentStore`): durable, `<parent>::<namespace>`,
 * the same history on every call and in every process; ephemeral, `<parent>::<namespace>~<newId()>`,
 * a new, empty session per call.
 */
export function subStoreSession(parent: Pick<StoreAdapter, "identifier">, namespace: string, durable: boolean, newId: () => string): { sessionId: string; child: SubStoreInfo } {
  const base = `${parent.identifier}::${namespace}`;
  return { sessionId: durable ? base : `${base}~${newId()}`, child: { parentId: parent.identifier, namespace, durable } };
}
