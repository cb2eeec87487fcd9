import type { RunStatus, Score } from "../run/run-types.js";

/** How an experiment stands: running, finished, stopped early (resumable) or failed. */
export type ExperimentStatus = "running" | "completed" | "interrupted" | "failed";

/** Aggregates of one scorer over an experiment. */
export interface ScoreSummary {
  /** Mean over every run. */
  mean: number;
  /** Standard deviation of the runs' scores (0 with one run). */
  stdev: number;
  /** Mean over items of the standard deviation between an item's repetitions: how much repeating changes a score. */
  repetitionStdev: number;
  /** Share of runs at or above the scorer's passAt. */
  passRate: number;
  /** Share of items with at least one passing run among its k repetitions (unbiased estimator, k = repetitions). */
  passAtK: number;
  /** Runs whose scorer failed (error scores). */
  errors: number;
}

/** An experiment's totals. */
export interface ExperimentSummary {
  items: number;
  runs: number;
  /** Runs that did not end "done" (error, timeout). */
  failedRuns: number;
  scores: Record<string, ScoreSummary>;
  tokensIn: number;
  tokensOut: number;
  modelCalls: number;
  costUsd: number;
  /** Models the price table had no price for (their tokens cost 0 in `costUsd`). */
  unpriced: string[];
  /** Mean latency of a run. */
  meanLatencyMs: number;
}

/** One experiment: what ran, on which dataset version, and how it ended. */
export interface ExperimentRecord {
  id: string;
  name: string;
  datasetName: string;
  /** The content hash of the dataset that ran. */
  datasetVersion: string;
  /** The AgentOverride's name. */
  variant: string;
  status: ExperimentStatus;
  /** ISO-8601. */
  startedAt: string;
  endedAt: string | null;
  config: {
    repetitions: number;
    concurrency: number;
    timeoutMs: number | null;
    scorers: Array<{ name: string; passAt: number }>;
    itemIds: string[];
  };
  summary: ExperimentSummary | null;
}

/** One run of one item, scored. */
export interface ItemResult {
  experimentId: string;
  itemId: string;
  repetition: number;
  /** The stored conversation of the run. */
  conversationId: string;
  status: RunStatus;
  error: { code: string; message: string } | null;
  output: string;
  scores: Record<string, Score>;
  usage: { tokensIn: number; tokensOut: number; modelCalls: number };
  costUsd: number;
  latencyMs: number;
  retries: number;
  /** ISO-8601. */
  createdAt: string;
}

/** Where experiments and their results are kept, beside the conversations they ran. */
export interface EvalResultsStore {
  createExperiment(record: ExperimentRecord): Promise<void>;
  getExperiment(id: string): Promise<ExperimentRecord | undefined>;
  updateExperiment(
    id: string,
    changes: Partial<Pick<ExperimentRecord, "status" | "endedAt" | "summary">>,
  ): Promise<void>;
  /** Newest first; optionally of one dataset. */
  listExperiments(query?: { datasetName?: string; limit?: number }): Promise<ExperimentRecord[]>;
  /** Inserts or replaces the result of (experimentId, itemId, repetition). */
  saveResult(result: ItemResult): Promise<void>;
  /** In item then repetition order. */
  results(experimentId: string): Promise<ItemResult[]>;
  close?(): Promise<void>;
}
