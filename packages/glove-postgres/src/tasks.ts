import type { PoolClient } from "pg";
import type { Task, TaskRecord } from "glove-core";
import type { PostgresSession } from "./session.js";

/** The session's task list, in insertion order (`position`); writes hold the session's row lock. */
export class PostgresTasks {
  readonly #session: PostgresSession;

  constructor(session: PostgresSession) {
    this.#session = session;
  }

  async list(): Promise<Task[]> {
    const { rows } = await this.#session.query<TaskRecord>(
      `SELECT task_id, content, active_form, status FROM ${this.#session.tables.tasks} WHERE session_id = $1 ORDER BY position`,
      [this.#session.sessionId],
    );
    return rows.map((row) => this.#session.codec.decodeTask(row));
  }

  /** Appends new tasks; a task whose id exists is replaced in place. */
  /** Every task is checked before any is written (GLOVE_STORE_INVALID refuses the whole list). */
  async add(tasks: Task[]): Promise<void> {
    const checked = this.#session.codec.checkTasks(tasks);
    await this.#session.transaction(async (client) => {
      for (const task of checked) await this.#upsert(client, task);
    });
  }

  async replace(tasks: Task[]): Promise<void> {
    const checked = this.#session.codec.checkTasks(tasks);
    await this.#session.transaction(async (client) => {
      await client.query(`DELETE FROM ${this.#session.tables.tasks} WHERE session_id = $1`, [this.#session.sessionId]);
      for (const task of checked) await this.#upsert(client, task);
    });
  }

  async update(taskId: string, updates: Partial<Task>): Promise<void> {
    const { codec, sessionId, tables } = this.#session;
    codec.checkId("task", taskId);
    await this.#session.transaction(async (client) => {
      const { rows } = await client.query<TaskRecord>(
        `SELECT task_id, content, active_form, status FROM ${tables.tasks} WHERE session_id = $1 AND task_id = $2`,
        [sessionId, taskId],
      );
      await this.#upsert(client, codec.mergeTaskUpdate(rows[0] && codec.decodeTask(rows[0]), taskId, updates));
    });
  }

  /** Writes a checked task. */
  async #upsert(client: PoolClient, task: Task): Promise<void> {
    const { id, content, activeForm, status } = task;
    const { tasks } = this.#session.tables;
    await client.query(
      `INSERT INTO ${tasks} (session_id, task_id, position, content, active_form, status)
       VALUES ($1, $2, (SELECT COALESCE(MAX(position) + 1, 0) FROM ${tasks} WHERE session_id = $1), $3, $4, $5)
       ON CONFLICT (session_id, task_id) DO UPDATE SET
         content = excluded.content, active_form = excluded.active_form, status = excluded.status`,
      [this.#session.sessionId, id, content, activeForm, status],
    );
  }
}
