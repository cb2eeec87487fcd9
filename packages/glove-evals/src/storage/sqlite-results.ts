import { GroupCommit, type SqliteDatabase } from "glove-sqlite";
import type { EvalResultsStore, ExperimentRecord, ItemResult } from "./records.js";
import {
  EXPERIMENT_COLUMNS,
  EXPERIMENTS_TABLE,
  experimentFromRow,
  experimentValues,
  RESULT_COLUMNS,
  RESULTS_TABLE,
  resultFromRow,
  resultValues,
} from "./result-rows.js";

const placeholders = (n: number) => Array.from({ length: n }, () => "?").join(", ");

/** Experiments and results in tables of a SQLite file (the app's, beside its conversations). */
export class SqliteResultsStore implements EvalResultsStore {
  readonly #db: SqliteDatabase;

  constructor(db: SqliteDatabase) {
    this.#db = db;
    db.exec(`CREATE TABLE IF NOT EXISTS ${EXPERIMENTS_TABLE} (
      id TEXT PRIMARY KEY, name TEXT NOT NULL, dataset_name TEXT NOT NULL, dataset_version TEXT NOT NULL,
      variant TEXT NOT NULL, status TEXT NOT NULL, started_at TEXT NOT NULL, ended_at TEXT,
      config TEXT NOT NULL, summary TEXT)`);
    db.exec(
      `CREATE INDEX IF NOT EXISTS ${EXPERIMENTS_TABLE}_dataset ON ${EXPERIMENTS_TABLE} (dataset_name, started_at DESC)`,
    );
    db.exec(`CREATE TABLE IF NOT EXISTS ${RESULTS_TABLE} (
      experiment_id TEXT NOT NULL, item_id TEXT NOT NULL, repetition INTEGER NOT NULL,
      conversation_id TEXT NOT NULL, status TEXT NOT NULL, error TEXT, output TEXT NOT NULL,
      scores TEXT NOT NULL, usage TEXT NOT NULL, cost_usd REAL NOT NULL, latency_ms REAL NOT NULL,
      retries INTEGER NOT NULL, created_at TEXT NOT NULL,
      PRIMARY KEY (experiment_id, item_id, repetition))`);
    db.exec(`CREATE INDEX IF NOT EXISTS ${RESULTS_TABLE}_conversation ON ${RESULTS_TABLE} (conversation_id)`);
  }

  async createExperiment(record: ExperimentRecord): Promise<void> {
    const sql = `INSERT INTO ${EXPERIMENTS_TABLE} (${EXPERIMENT_COLUMNS.join(", ")}) VALUES (${placeholders(EXPERIMENT_COLUMNS.length)})`;
    await this.#write(() => this.#db.prepare(sql).run(...experimentValues(record)));
  }

  async getExperiment(id: string): Promise<ExperimentRecord | undefined> {
    this.#flush();
    const row = this.#db.prepare(`SELECT * FROM ${EXPERIMENTS_TABLE} WHERE id = ?`).get(id);
    return row ? experimentFromRow(row as Record<string, unknown>) : undefined;
  }

  async updateExperiment(
    id: string,
    changes: Partial<Pick<ExperimentRecord, "status" | "endedAt" | "summary">>,
  ): Promise<void> {
    const sets: string[] = [];
    const values: unknown[] = [];
    const set = (column: string, value: unknown) => {
      sets.push(`${column} = ?`);
      values.push(value);
    };
    if (changes.status !== undefined) set("status", changes.status);
    if (changes.endedAt !== undefined) set("ended_at", changes.endedAt);
    if (changes.summary !== undefined)
      set("summary", changes.summary === null ? null : JSON.stringify(changes.summary));
    if (!sets.length) return;
    await this.#write(() =>
      this.#db.prepare(`UPDATE ${EXPERIMENTS_TABLE} SET ${sets.join(", ")} WHERE id = ?`).run(...values, id),
    );
  }

  async listExperiments(query: { datasetName?: string; limit?: number } = {}): Promise<ExperimentRecord[]> {
    this.#flush();
    const limit = query.limit ?? 100;
    const rows =
      query.datasetName === undefined
        ? this.#db.prepare(`SELECT * FROM ${EXPERIMENTS_TABLE} ORDER BY started_at DESC, id DESC LIMIT ?`).all(limit)
        : this.#db
            .prepare(
              `SELECT * FROM ${EXPERIMENTS_TABLE} WHERE dataset_name = ? ORDER BY started_at DESC, id DESC LIMIT ?`,
            )
            .all(query.datasetName, limit);
    return (rows as Array<Record<string, unknown>>).map(experimentFromRow);
  }

  async saveResult(result: ItemResult): Promise<void> {
    const sql = `INSERT OR REPLACE INTO ${RESULTS_TABLE} (${RESULT_COLUMNS.join(", ")}) VALUES (${placeholders(RESULT_COLUMNS.length)})`;
    await this.#write(() => this.#db.prepare(sql).run(...resultValues(result)));
  }

  async results(experimentId: string): Promise<ItemResult[]> {
    this.#flush();
    const rows = this.#db
      .prepare(`SELECT * FROM ${RESULTS_TABLE} WHERE experiment_id = ? ORDER BY item_id, repetition`)
      .all(experimentId);
    return (rows as Array<Record<string, unknown>>).map(resultFromRow);
  }

  /** Writes go through the connection's group commit when glove-server turned it on, like its own. */
  #write(run: () => unknown): Promise<unknown> {
    return GroupCommit.write(this.#db, run);
  }

  #flush(): void {
    GroupCommit.of(this.#db)?.flush();
  }
}
