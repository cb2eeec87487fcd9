import type { StoredWait, WaitFilter, WaitOutcome, WaitSettlement } from "../types/index.js";
import type { RecordCodec } from "./record-codec.js";
import { waitMatches, type WaitRow } from "./wait-records.js";

/**
 * MemoryStore's durable questions: the rows the SQL stores would keep (input and value as JSON
 * text), decoded on every read, so what reads back is the same in every store and never an
 * object a caller holds. Synchronous, so a settle cannot interleave with another: the first wins.
 */
export class MemoryWaits {
  readonly #codec: RecordCodec;
  /** Insertion-ordered by wait id; replacing a row keeps its place. */
  readonly #rows = new Map<string, WaitRow>();

  constructor(codec: RecordCodec) {
    this.#codec = codec;
  }

  /** Keeps the first row per id: a replay that adds again changes nothing. */
  add(wait: StoredWait): void {
    const row = this.#codec.encodeWait(wait);
    if (!this.#rows.has(row.id)) this.#rows.set(row.id, row);
  }

  settle(id: string, outcome: WaitOutcome): WaitSettlement {
    this.#codec.checkId("wait", id);
    const settled = this.#codec.encodeWaitOutcome(outcome);
    const row = this.#rows.get(id);
    if (row?.status !== "pending") return { won: false, wait: row && this.#codec.decodeWait(row) };
    const next = { ...row, ...settled };
    this.#rows.set(id, next);
    return { won: true, wait: this.#codec.decodeWait(next) };
  }

  list(filter?: WaitFilter): StoredWait[] {
    const checked = this.#codec.checkWaitFilter(filter);
    return [...this.#rows.values()]
      .filter((row) => waitMatches(row, checked))
      .map((row) => this.#codec.decodeWait(row));
  }
}
