import type { SqliteDatabase } from "./driver/types.js";
import type { BranchRewrite, BranchRewriteOutcome, MessageRecord, StoredBranch } from "glove-core";
import { checkBranchRewrite, decodeBranch, type BranchRow, type CheckedRewrite } from "glove-core";
import { SqliteStoreError } from "./errors.js";
import type { SqliteSession, SqliteSessionRow } from "./session.js";
import { statementsFor } from "./statement-cache.js";
import { immediateTransaction } from "./driver/transaction.js";

/**
 * The session's branch structure (decision 0025 of glove-core): stretches set aside from the
 * active branch in glove_branches, and rewrites of the active branch applied in one IMMEDIATE
 * transaction — checked against what the caller read, so of two writers exactly one wins.
 */
export class SqliteBranches {
  readonly #session: SqliteSession;
  readonly #row: SqliteSessionRow;
  readonly #s: ReturnType<typeof prepare>;
  readonly #rewrite: (change: CheckedRewrite, compactions: boolean[]) => BranchRewriteOutcome;

  constructor(session: SqliteSession, row: SqliteSessionRow) {
    this.#session = session;
    this.#row = row;
    this.#s = statementsFor(session.db, prepare);
    this.#rewrite = immediateTransaction(session.db, (change: CheckedRewrite, compactions: boolean[]) =>
      this.#rewriteInTransaction(change, compactions),
    );
  }

  list(): StoredBranch[] {
    const { sessionId, where } = this.#session;
    return (this.#s.list.all(sessionId) as BranchRow[]).map((row) => {
      const stretch = decodeBranch(row);
      if ("problem" in stretch) {
        throw new SqliteStoreError(
          sessionId,
          `branch "${row.branch_id}" in ${where} is corrupt: ${stretch.problem}. Nothing was changed or deleted; repair that row of glove_branches to continue.`,
          "GLOVE_STORE_CORRUPT",
        );
      }
      return stretch;
    });
  }

  rewrite(change: BranchRewrite): BranchRewriteOutcome {
    const invalid = (detail: string) =>
      new SqliteStoreError(this.#session.sessionId, `${detail}. Nothing was changed.`, "GLOVE_STORE_INVALID");
    const checked = checkBranchRewrite(this.#session.codec, change, invalid);
    return this.#rewrite(
      checked,
      change.append.map((message) => message.is_compaction === true),
    );
  }

  #rewriteInTransaction(change: CheckedRewrite, compactions: boolean[]): BranchRewriteOutcome {
    const { sessionId, codec, where } = this.#session;
    const { expected, keep, remove, add, append } = change;
    const count = this.#row.read().message_count;
    if (count !== expected.count) return { won: false };
    const last = count === 0 ? undefined : (this.#s.message.get(sessionId, count - 1) as MessageRecord | undefined);
    const lastId = last ? (codec.decodeMessage(last, { in: where, table: "glove_messages" }).id ?? null) : null;
    if (lastId !== expected.lastId) return { won: false };
    if (!remove.every((id) => this.#s.has.get(sessionId, id) !== undefined)) return { won: false };
    if (add.some((row) => !remove.includes(row.branch_id) && this.#s.has.get(sessionId, row.branch_id) !== undefined))
      return { won: false };
    const now = new Date().toISOString();
    this.#s.truncate.run(sessionId, keep);
    for (const id of remove) this.#s.remove.run(sessionId, id);
    for (const row of add)
      this.#s.insert.run(sessionId, row.branch_id, sessionId, row.at, row.parent_id, row.body, now);
    append.forEach((body, i) => this.#s.append.run(sessionId, keep + i, compactions[i] ? 1 : 0, body, now));
    const lastCompaction = (this.#s.lastCompaction.get(sessionId) as { seq: number | null }).seq;
    this.#row.setMessageCount(keep + append.length, lastCompaction);
    return { won: true };
  }
}

function prepare(db: SqliteDatabase) {
  return {
    list: db.prepare(
      "SELECT branch_id, at, parent_id, body FROM glove_branches WHERE session_id = ? ORDER BY position",
    ),
    has: db.prepare("SELECT 1 FROM glove_branches WHERE session_id = ? AND branch_id = ?"),
    message: db.prepare("SELECT seq, body FROM glove_messages WHERE session_id = ? AND seq = ?"),
    truncate: db.prepare("DELETE FROM glove_messages WHERE session_id = ? AND seq >= ?"),
    remove: db.prepare("DELETE FROM glove_branches WHERE session_id = ? AND branch_id = ?"),
    insert: db.prepare(
      `INSERT INTO glove_branches (session_id, branch_id, position, at, parent_id, body, created_at)
       VALUES (?, ?, (SELECT COALESCE(MAX(position), -1) + 1 FROM glove_branches WHERE session_id = ?), ?, ?, ?, ?)`,
    ),
    append: db.prepare(
      "INSERT INTO glove_messages (session_id, seq, is_compaction, body, created_at) VALUES (?, ?, ?, ?, ?)",
    ),
    lastCompaction: db.prepare("SELECT MAX(seq) AS seq FROM glove_messages WHERE session_id = ? AND is_compaction = 1"),
  };
}
