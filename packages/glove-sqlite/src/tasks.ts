import type { SqliteDatabase } from "./driver/types.js";
import type { Task, TaskRecord } from "glove-core";
import type { SqliteSession } from "./session.js";
import { statementsFor } from "./statement-cache.js";
import { runInTransaction } from "./driver/transaction.js";

/** The session's task list, in insertion order (`position`). */
export class SqliteTasks {
  readonly #session: SqliteSession;
  readonly #s: ReturnType<typeof prepare>;

  constructor(session: SqliteSession) {
    this.#session = session;
    this.#s = statementsFor(session.db, prepare);
  }

  list(): Task[] {
    return (this.#s.list.all(this.#session.sessionId) as TaskRecord[]).map((row) =>
      this.#session.codec.decodeTask(row),
    );
  }

  /** Appends new tasks; a task whose id exists is replaced in place. */
  /** Every task is checked before any is written (GLOVE_STORE_INVALID refuses the whole list). */
  add(tasks: Task[]): void {
    const checked = this.#session.codec.checkTasks(tasks);
    runInTransaction(this.#session.db, () => {
      for (const task of checked) this.#upsert(task);
    });
  }

  replace(tasks: Task[]): void {
    const checked = this.#session.codec.checkTasks(tasks);
    runInTransaction(this.#session.db, () => {
      this.#s.deleteAll.run(this.#session.sessionId);
      for (const task of checked) this.#upsert(task);
    });
  }

  update(taskId: string, updates: Partial<Task>): void {
    const { codec, sessionId } = this.#session;
    codec.checkId("task", taskId);
    runInTransaction(this.#session.db, () => {
      const row = this.#s.one.get(sessionId, taskId) as TaskRecord | undefined;
      this.#upsert(codec.mergeTaskUpdate(row && codec.decodeTask(row), taskId, updates));
    });
  }

  /** Writes a checked task. */
  #upsert(task: Task): void {
    const { id, content, activeForm, status } = task;
    this.#s.upsert.run({ session_id: this.#session.sessionId, task_id: id, content, active_form: activeForm, status });
  }
}

function prepare(db: SqliteDatabase) {
  return {
    list: db.prepare(
      "SELECT task_id, content, active_form, status FROM glove_tasks WHERE session_id = ? ORDER BY position",
    ),
    one: db.prepare(
      "SELECT task_id, content, active_form, status FROM glove_tasks WHERE session_id = ? AND task_id = ?",
    ),
    deleteAll: db.prepare("DELETE FROM glove_tasks WHERE session_id = ?"),
    upsert: db.prepare(
      `INSERT INTO glove_tasks (session_id, task_id, position, content, active_form, status)
       VALUES (@session_id, @task_id,
               (SELECT COALESCE(MAX(position) + 1, 0) FROM glove_tasks WHERE session_id = @session_id),
               @content, @active_form, @status)
       ON CONFLICT (session_id, task_id) DO UPDATE SET
         content = excluded.content, active_form = excluded.active_form, status = excluded.status`,
    ),
  };
}
