import type { SqliteDatabase } from "./driver/types.js";
import { GloveError } from "glove-core";

interface QueuedWrite {
  run: () => unknown;
  /** False for a write that is atomic by itself (one statement, or one immediateTransaction). */
  isolate: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const byDatabase = new WeakMap<SqliteDatabase, GroupCommit>();

/** The key of a glove-sqlite session's writes (every table glove-sqlite writes is keyed by session). */
export function sessionWritesKey(sessionId: string): string {
  return `glove-sqlite session ${sessionId}`;
}

/**
 * Group commit on one connection: the writes queued during one event-loop turn run together at its
 * end, in the order they were queued, in ONE IMMEDIATE transaction — each inside its own savepoint,
 * so a write that throws undoes only itself and rejects only its own promise. Every promise settles
 * after the commit: a write is acknowledged only once it is in the file, as before, and a process that
 * dies first loses only writes nobody was told about.
 *
 * Why: with many conversations on one file, a commit per write (its WAL pages, the shared index pages
 * rewritten each time) is most of what SQLite storage costs; one commit per turn of the loop writes
 * each touched page once.
 *
 * A read sees every write queued before it, exactly as when each write committed at once: a write
 * names what it touches (a key such as a session), and a read of that key runs the queue first
 * (`flushFor`); a write that names nothing may touch anything, so every read runs the queue while it
 * waits. Reads of other keys leave the batch to grow. The lock is held only inside `flush()` (a synchronous call),
 * never across turns of the loop, so other connections and processes on the file wait no longer than
 * for any transaction.
 */
export class GroupCommit {
  readonly #db: SqliteDatabase;
  #queue: QueuedWrite[] = [];
  /** What the queued writes touch; `#touchesAll` once one of them named nothing. */
  readonly #keys = new Set<string>();
  #touchesAll = false;
  #scheduled = false;
  #commits = 0;
  #statements: Statements | undefined;

  private constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  /** The connection's group commit, once `enable` turned it on; otherwise writes commit one by one. */
  static of(db: SqliteDatabase): GroupCommit | undefined {
    return byDatabase.get(db);
  }

  /** Turns group commit on for a connection (idempotent); every glove store on it then shares it. */
  static enable(db: SqliteDatabase): GroupCommit {
    let group = byDatabase.get(db);
    if (!group) byDatabase.set(db, (group = new GroupCommit(db)));
    return group;
  }

  /**
   * A write on `db`: queued for its group commit when that is on, run (and committed) at once
   * otherwise. Every glove store on a connection writes through here.
   */
  static write<T>(db: SqliteDatabase, run: () => T, key?: string, selfContained = false): Promise<T> {
    const group = byDatabase.get(db);
    if (group) return group.write(run, key, selfContained);
    try {
      return Promise.resolve(run());
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Transactions this connection committed for queued writes (a figure for tests and benchmarks). */
  get commits(): number {
    return this.#commits;
  }

  /** Writes waiting for the end of this turn of the loop. */
  get pending(): number {
    return this.#queue.length;
  }

  /**
   * Queues a synchronous write; resolves with its result after the commit that holds it. `key` names
   * what it touches (reads of other keys need not wait for it); without one, it may touch anything.
   * `selfContained`: the write is one statement or one immediateTransaction function (which
   * nests as its own savepoint), so a throw already leaves nothing of it and it needs no savepoint
   * of ours — two statements fewer per write.
   */
  write<T>(run: () => T, key?: string, selfContained = false): Promise<T> {
    if (key === undefined) this.#touchesAll = true;
    else this.#keys.add(key);
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ run, isolate: !selfContained, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(this.#flushLater);
      }
    });
  }

  readonly #flushLater = (): void => {
    this.#scheduled = false;
    this.flush();
  };

  /** Before a read of `key`: commits the queue now when a queued write may touch it. */
  flushFor(key: string): void {
    if (this.#touchesAll || this.#keys.has(key)) this.flush();
  }

  /** Runs and commits every queued write now (reads that may see them call it first; so does closing). */
  flush(): void {
    const batch = this.#queue;
    if (batch.length === 0) return;
    this.#queue = [];
    this.#keys.clear();
    this.#touchesAll = false;
    if (!this.#db.open) {
      const error = new GloveError(
        `SQLite database ${this.#db.name} was closed with ${batch.length} write(s) not yet committed; none of them was written. Close the store (or the storage) instead of its connection: that commits them first.`,
        { code: "GLOVE_STORE_CLOSED" },
      );
      for (const write of batch) write.reject(error);
      return;
    }
    const s = (this.#statements ??= prepare(this.#db));
    // Inside the caller's own open transaction the writes join it, as direct statements would.
    const owns = !this.#db.inTransaction;
    let outcomes: Outcome[];
    try {
      if (owns) s.begin.run();
      // Alone in its transaction a write needs no savepoint: its throw rolls the transaction back.
      outcomes =
        batch.length === 1 && owns
          ? [settle(batch[0]!.run)]
          : batch.map((write) => (write.isolate ? this.#isolated(write.run, s) : settle(write.run)));
      if (owns && this.#db.inTransaction) {
        if (batch.length === 1 && !outcomes[0]!.ok) s.rollback.run();
        else {
          s.commit.run();
          this.#commits++;
        }
      } else if (owns) {
        // An error such as a full disk ended the whole transaction: nothing of the batch stands.
        throw (
          outcomes.find((outcome) => !outcome.ok)?.error ??
          new GloveError("SQLite ended a group commit's transaction.", { code: "GLOVE_STORE" })
        );
      }
    } catch (error) {
      if (owns && this.#db.inTransaction) s.rollback.run();
      for (const write of batch) write.reject(error);
      return;
    }
    batch.forEach((write, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) write.resolve(outcome.value);
      else write.reject(outcome.error);
    });
  }

  #isolated(run: () => unknown, s: Statements): Outcome {
    s.savepoint.run();
    const outcome = settle(run);
    if (outcome.ok) s.release.run();
    else if (this.#db.inTransaction) {
      s.undo.run();
      s.release.run();
    }
    return outcome;
  }
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };
type Statements = ReturnType<typeof prepare>;

function settle(run: () => unknown): Outcome {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    return { ok: false, error };
  }
}

function prepare(db: SqliteDatabase) {
  return {
    begin: db.prepare("BEGIN IMMEDIATE"),
    commit: db.prepare("COMMIT"),
    rollback: db.prepare("ROLLBACK"),
    savepoint: db.prepare("SAVEPOINT glove_group_write"),
    release: db.prepare("RELEASE glove_group_write"),
    undo: db.prepare("ROLLBACK TO glove_group_write"),
  };
}
