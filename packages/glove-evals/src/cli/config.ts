import { mkdir, writeFile } from "node:fs/promises";
import { dirname, extname, isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { AgentFactory } from "glove-server";
import type { PriceTable } from "../costs/price-table.js";
import type { Dataset } from "../dataset/dataset.js";
import { loadDataset } from "../dataset/load-dataset.js";
import { EvalError } from "../errors.js";
import { baselineOf, readBaseline, writeBaseline } from "../gate/baseline.js";
import { checkGate, type GateOptions, type GateVerdict } from "../gate/gate.js";
import { jsonReport, junitReport } from "../reports/reports.js";
import type { AgentOverride } from "../run/agent-override.js";
import { runExperiment, type ExperimentOutcome, type ExperimentProgress } from "../run/experiment.js";
import type { SimulatedPerson } from "../run/simulated-person.js";
import type { Scorer } from "../scorers/scorer.js";
import { sqliteEvalStorage, type EvalStorage } from "../storage/eval-storage.js";

/** What `glove-evals run <config>` runs: the default export of a config module. Paths are relative to the config file. */
export interface EvalConfig {
  name?: string;
  /** A dataset file (`.jsonl` / `.json`), or a dataset made in code. */
  dataset: string | Dataset;
  /** Run the valid items of a dataset with malformed ones (listed on stderr) instead of failing. */
  skipInvalid?: boolean;
  agent: AgentFactory;
  override?: AgentOverride;
  scorers: Scorer[];
  person?: SimulatedPerson;
  repetitions?: number;
  concurrency?: number;
  timeoutMs?: number;
  retries?: number;
  prices?: PriceTable;
  /** Where conversations and results go. Default: sqliteEvalStorage() on ./.glove/glove.db (the app's file, where Studio looks). */
  storage?: EvalStorage | (() => EvalStorage | Promise<EvalStorage>);
  /** The CI gate: thresholds, and a baseline file (path) a score may not fall below by more than `margin`. */
  gate?: Omit<GateOptions, "baseline"> & { baseline?: string };
  /** Report files written after the run. */
  reports?: { json?: string; junit?: string };
}

/** Types a config module's default export. */
export function defineEvalConfig(config: EvalConfig): EvalConfig {
  return config;
}

/** Imports a config module (.js / .mjs; .ts where the running Node.js or a loader strips types). */
export async function loadConfig(file: string): Promise<EvalConfig> {
  let module: { default?: unknown };
  try {
    module = (await import(pathToFileURL(resolve(file)).href)) as { default?: unknown };
  } catch (error) {
    const code = (error as { code?: string }).code;
    const hint =
      code === "ERR_UNKNOWN_FILE_EXTENSION" && extname(file) === ".ts"
        ? " This Node.js cannot import TypeScript: compile the config, name it .mjs, or run with a loader (node --import tsx …)."
        : "";
    throw new EvalError("GLOVE_EVAL_CONFIG", `Cannot load the config ${file}: ${(error as Error).message}.${hint}`, {
      cause: error,
    });
  }
  const config = module.default as EvalConfig | undefined;
  if (!config || typeof config !== "object" || typeof config.agent !== "function" || !Array.isArray(config.scorers)) {
    throw new EvalError(
      "GLOVE_EVAL_CONFIG",
      `The config ${file} must export default defineEvalConfig({ dataset, agent, scorers, … }) (agent: the app's agent factory).`,
    );
  }
  return config;
}

export interface RunConfigOptions {
  /** The folder relative paths of the config are read from. */
  baseDir: string;
  resume?: string;
  /** Write the gate's baseline file from this run instead of checking against it. */
  updateBaseline?: boolean;
  signal?: AbortSignal;
  onProgress?: (progress: ExperimentProgress) => void;
  /** Report paths that override the config's. */
  reports?: { json?: string; junit?: string };
  onSkipped?: (message: string) => void;
}

export interface ConfigRun extends ExperimentOutcome {
  dataset: Dataset;
  gate: GateVerdict;
}

/** Runs a config: the experiment, the gate, the reports. */
export async function runConfig(config: EvalConfig, options: RunConfigOptions): Promise<ConfigRun> {
  const at = (path: string) => (isAbsolute(path) ? path : resolve(options.baseDir, path));
  const dataset =
    typeof config.dataset === "string"
      ? await loadDataset(at(config.dataset), { skipInvalid: config.skipInvalid ?? false })
      : config.dataset;
  for (const skipped of dataset.skipped) options.onSkipped?.(skipped.message);
  const storage =
    typeof config.storage === "function"
      ? await config.storage()
      : (config.storage ?? sqliteEvalStorage({ path: ".glove/glove.db" }));
  try {
    const outcome = await runExperiment({
      dataset,
      agent: config.agent,
      scorers: config.scorers,
      storage,
      ...pick(config, ["name", "override", "person", "repetitions", "concurrency", "timeoutMs", "retries", "prices"]),
      ...(options.resume ? { resume: options.resume } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    const { baseline: baselineFile, ...gateOptions } = config.gate ?? {};
    let gate: GateVerdict;
    if (baselineFile && options.updateBaseline && outcome.experiment.status === "completed") {
      await writeBaseline(at(baselineFile), baselineOf(outcome.experiment));
      gate = checkGate(outcome.experiment, gateOptions);
      gate.notes.push(`baseline written to ${baselineFile}`);
    } else {
      gate = checkGate(outcome.experiment, {
        ...gateOptions,
        ...(baselineFile ? { baseline: await readBaseline(at(baselineFile)) } : {}),
      });
    }
    if (outcome.experiment.status !== "completed") {
      gate.passed = false;
      gate.notes.push(
        `the experiment is ${outcome.experiment.status}; resume it with --resume ${outcome.experiment.id}`,
      );
    }
    const reports = { ...config.reports, ...options.reports };
    if (reports.json) await write(at(reports.json), jsonReport(outcome.experiment, outcome.results, gate));
    if (reports.junit) await write(at(reports.junit), junitReport(outcome.experiment, outcome.results, gate));
    return { ...outcome, dataset, gate };
  } finally {
    if (typeof config.storage !== "object") await storage.close();
  }
}

async function write(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text, "utf8");
}

function pick<T extends object, K extends keyof T>(source: T, keys: K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}
