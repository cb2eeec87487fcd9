import { ConfigurationError } from "glove-core";

/**
 * Refuses the message writes of a writer that was replaced, in the statement that locks the
 * session's row (no query of its own): that statement also reads `table`.`writer` where
 * `keyColumn` = `key` (locking that row FOR SHARE, so a writer taking over waits for writes in
 * flight), and the write is refused with `refuse()` unless it equals `writer`.
 */
export interface WriterFence {
  /** The fence table, `schema.table` or `table` (plain lower-case identifiers); it has a BIGINT or INTEGER column `writer`. */
  table: string;
  /** The column `key` is matched against. */
  keyColumn: string;
  key: string;
  /** This writer's number: writes succeed while the row holds it. */
  writer: number;
  /** Checked with the fence row: false (a writer told elsewhere that it lost its turn) refuses although the row still names it. */
  holds?: () => boolean;
  /** The error a refused write throws (nothing is written). */
  refuse: () => Error;
}

const TABLE = /^[a-z_][a-z0-9_]{0,62}(\.[a-z_][a-z0-9_]{0,62})?$/;
const COLUMN = /^[a-z_][a-z0-9_]{0,62}$/;

/** The fence checked for use in SQL text (identifiers are not parameters). */
export function checkWriterFence(fence: WriterFence | undefined, sessionId: string): WriterFence | undefined {
  if (fence === undefined) return undefined;
  if (
    !TABLE.test(fence.table) ||
    !COLUMN.test(fence.keyColumn) ||
    typeof fence.refuse !== "function" ||
    !Number.isSafeInteger(fence.writer)
  ) {
    throw new ConfigurationError(
      `PostgresStore session "${sessionId}": writerFence needs table ("schema.table"), keyColumn (plain lower-case identifiers), an integer writer and refuse(). Pass one that has them. Nothing was changed.`,
    );
  }
  return fence;
}

/** The column the session lock reads the fence into (`$2` is the fence's key). */
export function fenceColumn(fence: WriterFence): string {
  return `(SELECT writer FROM ${fence.table} WHERE ${fence.keyColumn} = $2 FOR SHARE) AS fence_writer`;
}

/** Throws the fence's error unless the locked row says this writer still holds it. */
export function checkFenceHeld(fence: WriterFence, row: Record<string, unknown> | undefined): void {
  if (fence.holds && !fence.holds()) throw fence.refuse();
  if (Number(row?.fence_writer) !== fence.writer) throw fence.refuse();
}
