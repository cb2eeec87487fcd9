/** glove-evals: know whether an agent is good — datasets, scorers, experiments, comparisons, a CI gate. */
export { EvalError, DatasetError } from "./errors.js";
export type { EvalErrorCode } from "./errors.js";

export { evalItemSchema, personAnswerSchema, expectedToolCallSchema, itemTurns } from "./dataset/item-schema.js";
export type { EvalItem, EvalItemInput, PersonAnswer, ExpectedToolCall } from "./dataset/item-schema.js";
export { defineDataset, itemId } from "./dataset/dataset.js";
export type { Dataset } from "./dataset/dataset.js";
export { loadDataset } from "./dataset/load-dataset.js";
export type { LoadDatasetOptions } from "./dataset/load-dataset.js";
export { itemFromConversation, appendItems } from "./dataset/from-conversation.js";
export type { ConversationSource, ItemFromConversationOptions, RedactItem } from "./dataset/from-conversation.js";

export { defineScorer, runScorer } from "./scorers/scorer.js";
export type { Scorer, ScorerResult } from "./scorers/scorer.js";
export { exactMatch, contains, matchesRegex } from "./scorers/text.js";
export { schemaMatch } from "./scorers/structured.js";
export { toolTrajectory } from "./scorers/trajectory.js";
export type { TrajectoryOptions } from "./scorers/trajectory.js";
export { budget } from "./scorers/budget.js";
export type { BudgetLimits } from "./scorers/budget.js";
export { askedPermission, askedForMissing } from "./scorers/human.js";
export { llmJudge, judgeVerdictSchema, transcript } from "./scorers/llm-judge.js";
export type { LlmJudgeOptions } from "./scorers/llm-judge.js";

export { applyOverride } from "./run/agent-override.js";
export type { AgentOverride } from "./run/agent-override.js";
export { EvalHarness, EVAL_PRINCIPAL } from "./run/eval-harness.js";
export type { EvalHarnessOptions, RunItemOptions } from "./run/eval-harness.js";
export { scriptedPerson, modelPerson } from "./run/simulated-person.js";
export type {
  SimulatedPerson,
  PersonSession,
  PersonQuestion,
  PersonReply,
  ScriptedPersonOptions,
  ModelPersonOptions,
} from "./run/simulated-person.js";
export { runExperiment } from "./run/experiment.js";
export type { ExperimentOptions, ExperimentOutcome, ExperimentProgress } from "./run/experiment.js";
export { summarize, passAtK } from "./run/summary.js";
export type { ItemRun, Score, RunStatus, ToolCallRecord, RecordedQuestion, TimelineEntry } from "./run/run-types.js";

export { DEFAULT_PRICES, withPrices, priceOf, costOf } from "./costs/price-table.js";
export type { ModelPrice, PriceTable, ModelUsage } from "./costs/price-table.js";

export { sqliteEvalStorage, memoryEvalStorage } from "./storage/eval-storage.js";
export type { EvalStorage, SqliteEvalStorageOptions } from "./storage/eval-storage.js";
export { SqliteResultsStore } from "./storage/sqlite-results.js";
export { MemoryResultsStore } from "./storage/memory-results.js";
export { EXPERIMENTS_TABLE, RESULTS_TABLE } from "./storage/result-rows.js";
export type {
  EvalResultsStore,
  ExperimentRecord,
  ExperimentStatus,
  ExperimentSummary,
  ItemResult,
  ScoreSummary,
} from "./storage/records.js";

export { compareExperiments, formatComparison } from "./compare/compare.js";
export type { Comparison, CompareOptions, ScoreComparison, ItemComparison } from "./compare/compare.js";
export { seededRandom, bootstrapMeanInterval } from "./compare/seeded-random.js";
export { checkGate } from "./gate/gate.js";
export type { GateOptions, GateVerdict, GateFailure } from "./gate/gate.js";
export { baselineSchema, readBaseline, writeBaseline, baselineOf } from "./gate/baseline.js";
export type { Baseline } from "./gate/baseline.js";
export { jsonReport, junitReport } from "./reports/reports.js";
export { defineEvalConfig, loadConfig, runConfig } from "./cli/config.js";
export type { EvalConfig, RunConfigOptions, ConfigRun } from "./cli/config.js";
export { cli } from "./cli/cli.js";
export type { CliIo } from "./cli/cli.js";
export { progressLine } from "./cli/progress.js";
