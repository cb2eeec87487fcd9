import type { Pool } from "pg";
import { EvalError } from "../../errors.js";
import type { EvalResultsStore, ExperimentRecord, ItemResult } from "../records.js";
import {
  EXPERIMENT_COLUMNS,
  EXPERIMENTS_TABLE,
  experimentFromRow,
  experimentValues,
  RESULT_COLUMNS,
  RESULTS_TABLE,
  resultFromRow,
  resultValues,
} from "../result-rows.js";

const params = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `$${i + from}`).join(", ");

/** Experiments and results in tables of a PostgreSQL schema (the app's, beside its conversations). */
export class PostgresResultsStore implements EvalResultsStore {
  readonly #pool: Pool;
  readonly #experiments: string;
  readonly #results: string;
  readonly #schema: string;
  #ready: Promise<void> | undefined;

  constructor(pool: Pool, schema = "glove") {
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
      throw new EvalError(
        "GLOVE_EVAL_CONFIG",
        `PostgresResultsStore: ${JSON.stringify(schema)} is not a plain schema name (letters, digits, _).`,
      );
    }
    this.#pool = pool;
    this.#experiments = `"${schema}".${EXPERIMENTS_TABLE}`;
    this.#results = `"${schema}".${RESULTS_TABLE}`;
    this.#schema = schema;
  }

  /** Creates the schema and tables when missing (every method calls it first). */
  migrate(): Promise<void> {
    this.#ready ??= this.#pool
      .query(
        `CREATE SCHEMA IF NOT EXISTS "${this.#schema}";
         CREATE TABLE IF NOT EXISTS ${this.#experiments} (
           id TEXT PRIMARY KEY, name TEXT NOT NULL, dataset_name TEXT NOT NULL, dataset_version TEXT NOT NULL,
           variant TEXT NOT NULL, status TEXT NOT NULL, started_at TEXT NOT NULL, ended_at TEXT,
           config JSONB NOT NULL, summary JSONB);
         CREATE INDEX IF NOT EXISTS ${EXPERIMENTS_TABLE}_dataset ON ${this.#experiments} (dataset_name, started_at DESC);
         CREATE TABLE IF NOT EXISTS ${this.#results} (
           experiment_id TEXT NOT NULL, item_id TEXT NOT NULL, repetition INTEGER NOT NULL,
           conversation_id TEXT NOT NULL, status TEXT NOT NULL, error JSONB, output TEXT NOT NULL,
           scores JSONB NOT NULL, usage JSONB NOT NULL, cost_usd DOUBLE PRECISION NOT NULL,
           latency_ms DOUBLE PRECISION NOT NULL, retries INTEGER NOT NULL, created_at TEXT NOT NULL,
           PRIMARY KEY (experiment_id, item_id, repetition));
         CREATE INDEX IF NOT EXISTS ${RESULTS_TABLE}_conversation ON ${this.#results} (conversation_id);`,
      )
      .then(() => undefined)
      .catch((error: unknown) => {
        this.#ready = undefined;
        throw new EvalError(
          "GLOVE_EVAL_STORAGE",
          `Could not create glove-evals' tables in schema "${this.#schema}": ${(error as Error).message}`,
          { cause: error },
        );
      });
    return this.#ready;
  }

  async createExperiment(record: ExperimentRecord): Promise<void> {
    await this.migrate();
    await this.#pool.query(
      `INSERT INTO ${this.#experiments} (${EXPERIMENT_COLUMNS.join(", ")}) VALUES (${params(EXPERIMENT_COLUMNS.length)})`,
      experimentValues(record),
    );
  }

  async getExperiment(id: string): Promise<ExperimentRecord | undefined> {
    await this.migrate();
    const { rows } = await this.#pool.query(`SELECT * FROM ${this.#experiments} WHERE id = $1`, [id]);
    return rows[0] ? experimentFromRow(rows[0] as Record<string, unknown>) : undefined;
  }

  async updateExperiment(
    id: string,
    changes: Partial<Pick<ExperimentRecord, "status" | "endedAt" | "summary">>,
  ): Promise<void> {
    await this.migrate();
    const sets: string[] = [];
    const values: unknown[] = [];
    const set = (column: string, value: unknown) => {
      values.push(value);
      sets.push(`${column} = $${values.length}`);
    };
    if (changes.status !== undefined) set("status", changes.status);
    if (changes.endedAt !== undefined) set("ended_at", changes.endedAt);
    if (changes.summary !== undefined)
      set("summary", changes.summary === null ? null : JSON.stringify(changes.summary));
    if (!sets.length) return;
    values.push(id);
    await this.#pool.query(`UPDATE ${this.#experiments} SET ${sets.join(", ")} WHERE id = $${values.length}`, values);
  }

  async listExperiments(query: { datasetName?: string; limit?: number } = {}): Promise<ExperimentRecord[]> {
    await this.migrate();
    const limit = query.limit ?? 100;
    const { rows } =
      query.datasetName === undefined
        ? await this.#pool.query(`SELECT * FROM ${this.#experiments} ORDER BY started_at DESC, id DESC LIMIT $1`, [
            limit,
          ])
        : await this.#pool.query(
            `SELECT * FROM ${this.#experiments} WHERE dataset_name = $1 ORDER BY started_at DESC, id DESC LIMIT $2`,
            [query.datasetName, limit],
          );
    return (rows as Array<Record<string, unknown>>).map(experimentFromRow);
  }

  async saveResult(result: ItemResult): Promise<void> {
    await this.migrate();
    const updates = RESULT_COLUMNS.slice(3)
      .map((c) => `${c} = EXCLUDED.${c}`)
      .join(", ");
    await this.#pool.query(
      `INSERT INTO ${this.#results} (${RESULT_COLUMNS.join(", ")}) VALUES (${params(RESULT_COLUMNS.length)})
       ON CONFLICT (experiment_id, item_id, repetition) DO UPDATE SET ${updates}`,
      resultValues(result),
    );
  }

  async results(experimentId: string): Promise<ItemResult[]> {
    await this.migrate();
    const { rows } = await this.#pool.query(
      `SELECT * FROM ${this.#results} WHERE experiment_id = $1 ORDER BY item_id COLLATE "C", repetition`,
      [experimentId],
    );
    return (rows as Array<Record<string, unknown>>).map(resultFromRow);
  }
}
