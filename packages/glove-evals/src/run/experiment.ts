import { randomUUID } from "node:crypto";
import { ProviderError } from "glove-core";
import type { AgentFactory } from "glove-server";
import { costOf, DEFAULT_PRICES, type PriceTable } from "../costs/price-table.js";
import type { Dataset } from "../dataset/dataset.js";
import type { EvalItem } from "../dataset/item-schema.js";
import { EvalError } from "../errors.js";
import { checkScorers, runScorer, type Scorer } from "../scorers/scorer.js";
import type { EvalStorage } from "../storage/eval-storage.js";
import type { ExperimentRecord, ItemResult } from "../storage/records.js";
import type { AgentOverride } from "./agent-override.js";
import { EvalHarness } from "./eval-harness.js";
import type { ItemRun, Score } from "./run-types.js";
import { scriptedPerson, type SimulatedPerson } from "./simulated-person.js";
import { summarize } from "./summary.js";

/** Where a running experiment stands (for a progress line). */
export interface ExperimentProgress {
  done: number;
  total: number;
  failed: number;
  /** Runs skipped because a resumed experiment had them already. */
  skipped: number;
  /** Mean score so far, per scorer, over this session's runs. */
  means: Record<string, number>;
  costUsd: number;
}

export interface ExperimentOptions {
  /** A label; default the dataset name and the variant. */
  name?: string;
  dataset: Dataset;
  /** The app's agent factory (the function its glove-server serves). */
  agent: AgentFactory;
  /** The variant: model, prompt, tools (see AgentOverride). */
  override?: AgentOverride;
  scorers: Scorer[];
  storage: EvalStorage;
  /** Who answers the agent's forms and permission prompts. Default scriptedPerson() (the items' `answers`). */
  person?: SimulatedPerson;
  /** Runs per item (pass@k, variance). Default 1. */
  repetitions?: number;
  /** Runs at once. Default 4. */
  concurrency?: number;
  /** A run still going after this long is aborted and ends as "timeout". */
  timeoutMs?: number;
  /** Runs started again after a retryable provider error (429, 5xx, lost connection). Default 2. */
  retries?: number;
  /** First wait before such a retry, doubled each time (a provider's retry-after wins). Default 1000. */
  retryDelayMs?: number;
  /** Prices for costs. Default DEFAULT_PRICES. */
  prices?: PriceTable;
  /** Stops the experiment: running runs are aborted and not kept; what finished is, and `resume` goes on. */
  signal?: AbortSignal;
  /** The id of an experiment to continue: runs it already has are skipped. */
  resume?: string;
  onProgress?: (progress: ExperimentProgress) => void;
  /** Called with each scored run (reports, custom logging). */
  onResult?: (result: ItemResult, run: ItemRun) => void;
}

export interface ExperimentOutcome {
  experiment: ExperimentRecord;
  results: ItemResult[];
}

/**
 * Runs the agent over the dataset: each item `repetitions` times, `concurrency` at once, each run a
 * conversation of an in-process glove-server on `storage`, scored and stored as it finishes.
 */
export async function runExperiment(options: ExperimentOptions): Promise<ExperimentOutcome> {
  checkScorers(options.scorers);
  const repetitions = positive(options.repetitions ?? 1, "repetitions");
  const concurrency = positive(options.concurrency ?? 4, "concurrency");
  const { results: store } = options.storage;
  const variant = options.override?.name ?? "base";
  const passAt = Object.fromEntries(options.scorers.map((s) => [s.name, s.passAt ?? 1]));
  const experiment = await openExperiment(options, { repetitions, concurrency, variant });
  const previous = options.resume ? await store.results(experiment.id) : [];
  const have = new Set(previous.map((r) => `${r.itemId}#${r.repetition}`));
  const tasks: Array<{ item: EvalItem; repetition: number }> = [];
  for (const item of options.dataset.items) {
    for (let repetition = 0; repetition < repetitions; repetition++) {
      if (!have.has(`${item.id}#${repetition}`)) tasks.push({ item, repetition });
    }
  }
  const harness = new EvalHarness({
    agent: options.agent,
    storage: options.storage.server,
    ...(options.override ? { override: options.override } : {}),
  });
  const person = options.person ?? scriptedPerson();
  const prices = options.prices ?? DEFAULT_PRICES;
  const unpriced = new Set(experiment.summary?.unpriced ?? []);
  const progress: ExperimentProgress = {
    done: 0,
    total: tasks.length,
    failed: 0,
    skipped: have.size,
    means: {},
    costUsd: 0,
  };
  const sums: Record<string, number> = {};
  let next = 0;
  const worker = async () => {
    while (next < tasks.length && !options.signal?.aborted) {
      const { item, repetition } = tasks[next++]!;
      const run = await runWithRetries(harness, item, repetition, person, options);
      if (run.status === "aborted" && options.signal?.aborted) return; // interrupted: not kept, resume runs it again
      const scores: Record<string, Score> = {};
      for (const scorer of options.scorers) scores[scorer.name] = await runScorer(scorer, run);
      const cost = costOf(run.models, prices);
      cost.unpriced.forEach((m) => unpriced.add(m));
      const result: ItemResult = {
        experimentId: experiment.id,
        itemId: item.id,
        repetition,
        conversationId: run.conversationId,
        status: run.status,
        error: run.error ?? null,
        output: run.output,
        scores,
        usage: run.usage,
        costUsd: cost.usd,
        latencyMs: run.latencyMs,
        retries: run.retries,
        createdAt: new Date().toISOString(),
      };
      await store.saveResult(result);
      progress.done++;
      if (run.status !== "done") progress.failed++;
      progress.costUsd += cost.usd;
      for (const [name, s] of Object.entries(scores)) {
        sums[name] = (sums[name] ?? 0) + s.score;
        progress.means[name] = sums[name]! / progress.done;
      }
      options.onResult?.(result, run);
      options.onProgress?.({ ...progress, means: { ...progress.means } });
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, tasks.length)) }, worker));
  } finally {
    await harness.close();
  }
  const results = await store.results(experiment.id);
  const interrupted = Boolean(options.signal?.aborted) && results.length < options.dataset.items.length * repetitions;
  const changes = {
    status: interrupted ? ("interrupted" as const) : ("completed" as const),
    endedAt: new Date().toISOString(),
    summary: summarize(results, passAt, [...unpriced]),
  };
  await store.updateExperiment(experiment.id, changes);
  return { experiment: { ...experiment, ...changes }, results };
}

async function openExperiment(
  options: ExperimentOptions,
  settings: { repetitions: number; concurrency: number; variant: string },
): Promise<ExperimentRecord> {
  const { results: store } = options.storage;
  if (options.resume) {
    const found = await store.getExperiment(options.resume);
    if (!found) throw new EvalError("GLOVE_EVAL_RUN", `No experiment ${options.resume} to resume in this storage.`);
    if (found.datasetVersion !== options.dataset.version) {
      throw new EvalError(
        "GLOVE_EVAL_RUN",
        `Experiment ${found.id} ran dataset version ${found.datasetVersion}, but ${options.dataset.name} is now ${options.dataset.version}. Start a new experiment.`,
      );
    }
    await store.updateExperiment(found.id, { status: "running", endedAt: null });
    return { ...found, status: "running", endedAt: null };
  }
  const record: ExperimentRecord = {
    id: randomUUID(),
    name: options.name ?? `${options.dataset.name} · ${settings.variant}`,
    datasetName: options.dataset.name,
    datasetVersion: options.dataset.version,
    variant: settings.variant,
    status: "running",
    startedAt: new Date().toISOString(),
    endedAt: null,
    config: {
      repetitions: settings.repetitions,
      concurrency: settings.concurrency,
      timeoutMs: options.timeoutMs ?? null,
      scorers: options.scorers.map((s) => ({ name: s.name, passAt: s.passAt ?? 1 })),
      itemIds: options.dataset.items.map((i) => i.id),
    },
    summary: null,
  };
  await store.createExperiment(record);
  return record;
}

async function runWithRetries(
  harness: EvalHarness,
  item: EvalItem,
  repetition: number,
  person: SimulatedPerson,
  options: ExperimentOptions,
): Promise<ItemRun> {
  const retries = options.retries ?? 2;
  for (let attempt = 0; ; attempt++) {
    const { providerError, ...run } = await harness.run(item, repetition, {
      person,
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const retryable = ProviderError.isInstance(providerError) && providerError.retryable;
    if (!retryable || attempt >= retries || options.signal?.aborted) return { ...run, retries: attempt };
    const wait = providerError.retryAfterMs ?? (options.retryDelayMs ?? 1000) * 2 ** attempt;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

function positive(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new EvalError("GLOVE_EVAL_CONFIG", `${name} must be a whole number of at least 1, got ${value}.`);
  }
  return value;
}
