import type { PoolClient } from "pg";
import type { BranchRewrite, BranchRewriteOutcome, MessageRecord, SessionRecord, StoredBranch } from "glove-core";
import { checkBranchRewrite, decodeBranch, type BranchRow, type CheckedRewrite } from "glove-core";
import { PostgresStoreError } from "./errors.js";
import type { PostgresSession } from "./session.js";
import type { WriterFence } from "./writer-fence.js";

/**
 * The session's branch structure (decision 0025 of glove-core): stretches set aside from the
 * active branch in glove_branches, and rewrites of the active branch applied in one transaction
 * holding the session's row lock — checked against what the caller read, so of two writers (any
 * processes) exactly one wins.
 */
export class PostgresBranches {
  constructor(
    private readonly session: PostgresSession,
    /** The store's append guard (a fenced turn's store refuses writes of a worker that lost its turn). */
    private readonly beforeWrite?: (client: PoolClient) => Promise<void>,
    /** The store's writer fence, checked with the row lock. */
    private readonly fence?: WriterFence,
  ) {}

  async list(): Promise<StoredBranch[]> {
    const { sessionId, tables } = this.session;
    const { rows } = await this.session.query<BranchRow>(
      `SELECT branch_id, at, parent_id, body FROM ${tables.branches} WHERE session_id = $1 ORDER BY position`,
      [sessionId],
    );
    return rows.map((row) => {
      const stretch = decodeBranch(row);
      if ("problem" in stretch) {
        throw new PostgresStoreError(
          sessionId,
          `branch "${row.branch_id}" in ${tables.branches} is corrupt: ${stretch.problem}. Nothing was changed or deleted; repair that row to continue.`,
          "GLOVE_STORE_CORRUPT",
        );
      }
      return stretch;
    });
  }

  async rewrite(change: BranchRewrite): Promise<BranchRewriteOutcome> {
    const invalid = (detail: string) =>
      new PostgresStoreError(this.session.sessionId, `${detail}. Nothing was changed.`, "GLOVE_STORE_INVALID");
    const checked = checkBranchRewrite(this.session.codec, change, invalid);
    const compactions = change.append.map((message) => message.is_compaction === true);
    return this.session.transaction(
      (client, row) => this.#rewriteLocked(client, row, checked, compactions),
      this.fence,
    );
  }

  async #rewriteLocked(
    client: PoolClient,
    row: SessionRecord,
    change: CheckedRewrite,
    compactions: boolean[],
  ): Promise<BranchRewriteOutcome> {
    const { sessionId, codec, tables } = this.session;
    const { expected, keep, remove, add, append } = change;
    if (this.beforeWrite) await this.beforeWrite(client);
    if (row.message_count !== expected.count) return { won: false };
    const last =
      expected.count === 0
        ? []
        : (
            await client.query<MessageRecord>(
              `SELECT seq, body FROM ${tables.messages} WHERE session_id = $1 AND seq = $2`,
              [sessionId, expected.count - 1],
            )
          ).rows;
    const lastId = last[0] ? (codec.decodeMessage(last[0], { in: tables.messages }).id ?? null) : null;
    if (lastId !== expected.lastId) return { won: false };
    const ids = [...new Set([...remove, ...add.map((stretch) => stretch.branch_id)])];
    const { rows: present } = await client.query<{ branch_id: string }>(
      `SELECT branch_id FROM ${tables.branches} WHERE session_id = $1 AND branch_id = ANY($2::text[])`,
      [sessionId, ids],
    );
    const stored = new Set(present.map((found) => found.branch_id));
    if (
      !remove.every((id) => stored.has(id)) ||
      add.some((stretch) => stored.has(stretch.branch_id) && !remove.includes(stretch.branch_id))
    )
      return { won: false };
    await client.query(`DELETE FROM ${tables.messages} WHERE session_id = $1 AND seq >= $2`, [sessionId, keep]);
    await client.query(`DELETE FROM ${tables.branches} WHERE session_id = $1 AND branch_id = ANY($2::text[])`, [
      sessionId,
      remove,
    ]);
    for (const stretch of add) {
      await client.query(
        `INSERT INTO ${tables.branches} (session_id, branch_id, at, parent_id, body) VALUES ($1, $2, $3, $4, $5)`,
        [sessionId, stretch.branch_id, stretch.at, stretch.parent_id, stretch.body],
      );
    }
    await client.query(
      `INSERT INTO ${tables.messages} (session_id, seq, is_compaction, body)
       SELECT $1, t.seq, t.is_compaction, t.body FROM unnest($2::int[], $3::boolean[], $4::text[]) AS t(seq, is_compaction, body)`,
      [sessionId, append.map((_, i) => keep + i), compactions, append],
    );
    await client.query(
      `UPDATE ${tables.sessions} SET message_count = $2,
         last_compaction_seq = (SELECT MAX(seq) FROM ${tables.messages} WHERE session_id = $1 AND is_compaction)
       WHERE session_id = $1`,
      [sessionId, keep + append.length],
    );
    return { won: true };
  }
}
