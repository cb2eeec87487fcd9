import type { ExperimentRecord, ItemResult } from "./records.js";

/** The tables of glove-evals, beside glove-server's (not "glove_…": glove-sqlite owns those names). */
export const EXPERIMENTS_TABLE = "gloveevals_experiments";
export const RESULTS_TABLE = "gloveevals_results";

const json = (value: unknown) => (typeof value === "string" ? (JSON.parse(value) as unknown) : value);

/** Column values of an experiment, in EXPERIMENT_COLUMNS order. */
export const EXPERIMENT_COLUMNS = [
  "id",
  "name",
  "dataset_name",
  "dataset_version",
  "variant",
  "status",
  "started_at",
  "ended_at",
  "config",
  "summary",
] as const;

export function experimentValues(r: ExperimentRecord): unknown[] {
  return [
    r.id,
    r.name,
    r.datasetName,
    r.datasetVersion,
    r.variant,
    r.status,
    r.startedAt,
    r.endedAt,
    JSON.stringify(r.config),
    r.summary === null ? null : JSON.stringify(r.summary),
  ];
}

export function experimentFromRow(row: Record<string, unknown>): ExperimentRecord {
  return {
    id: row.id as string,
    name: row.name as string,
    datasetName: row.dataset_name as string,
    datasetVersion: row.dataset_version as string,
    variant: row.variant as string,
    status: row.status as ExperimentRecord["status"],
    startedAt: row.started_at as string,
    endedAt: (row.ended_at as string | null) ?? null,
    config: json(row.config) as ExperimentRecord["config"],
    summary:
      row.summary === null || row.summary === undefined ? null : (json(row.summary) as ExperimentRecord["summary"]),
  };
}

export const RESULT_COLUMNS = [
  "experiment_id",
  "item_id",
  "repetition",
  "conversation_id",
  "status",
  "error",
  "output",
  "scores",
  "usage",
  "cost_usd",
  "latency_ms",
  "retries",
  "created_at",
] as const;

export function resultValues(r: ItemResult): unknown[] {
  return [
    r.experimentId,
    r.itemId,
    r.repetition,
    r.conversationId,
    r.status,
    r.error === null ? null : JSON.stringify(r.error),
    r.output,
    JSON.stringify(r.scores),
    JSON.stringify(r.usage),
    r.costUsd,
    r.latencyMs,
    r.retries,
    r.createdAt,
  ];
}

export function resultFromRow(row: Record<string, unknown>): ItemResult {
  return {
    experimentId: row.experiment_id as string,
    itemId: row.item_id as string,
    repetition: Number(row.repetition),
    conversationId: row.conversation_id as string,
    status: row.status as ItemResult["status"],
    error: row.error === null || row.error === undefined ? null : (json(row.error) as ItemResult["error"]),
    output: row.output as string,
    scores: json(row.scores) as ItemResult["scores"],
    usage: json(row.usage) as ItemResult["usage"],
    costUsd: Number(row.cost_usd),
    latencyMs: Number(row.latency_ms),
    retries: Number(row.retries),
    createdAt: row.created_at as string,
  };
}
