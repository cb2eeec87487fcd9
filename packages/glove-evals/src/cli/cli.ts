import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { openInspector } from "glove-server";
import { compareExperiments, formatComparison } from "../compare/compare.js";
import { appendItems, itemFromConversation, type RedactItem } from "../dataset/from-conversation.js";
import { EvalError } from "../errors.js";
import { sqliteEvalStorage } from "../storage/eval-storage.js";
import { loadConfig, runConfig } from "./config.js";
import { progressLine } from "./progress.js";

/** Where the CLI writes and what it may be stopped by. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The first abort stops the run (what finished is kept; --resume continues). */
  signal?: AbortSignal;
  /** Redraw the progress line in place (a terminal) instead of a line per run. */
  tty?: boolean;
}

const USAGE = `Usage:
  glove-evals run <config> [--resume <experiment-id>] [--update-baseline] [--json <file>] [--junit <file>]
  glove-evals compare <base-id> <candidate-id> [--sqlite <file>] [--seed <n>]
  glove-evals add-item --from-conversation <id> --dataset <file.jsonl> [--sqlite <file> | --postgres <url> [--schema <name>]] (--redact <module> | --keep-personal-data)`;

/** Runs a command; resolves the exit code (0 ok, 1 gate failed or error, 2 usage, 130 interrupted). */
export async function cli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === "run") return await run(rest, io);
    if (command === "compare") return await compare(rest, io);
    if (command === "add-item") return await addItem(rest, io);
    io.stderr(`${command ? `Unknown command "${command}".\n` : ""}${USAGE}\n`);
    return 2;
  } catch (error) {
    if (EvalError.isInstance(error) || (error as { code?: string }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      io.stderr(`glove-evals: ${(error as Error).message}\n`);
      return (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS") ? 2 : 1;
    }
    throw error;
  }
}

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      resume: { type: "string" },
      "update-baseline": { type: "boolean" },
      json: { type: "string" },
      junit: { type: "string" },
    },
  });
  const file = positionals[0];
  if (!file) throw new EvalError("GLOVE_EVAL_CONFIG", `run needs a config file.\n${USAGE}`);
  const config = await loadConfig(file);
  let last = "";
  const outcome = await runConfig(config, {
    baseDir: dirname(resolve(file)),
    ...(values.resume ? { resume: values.resume } : {}),
    ...(values["update-baseline"] ? { updateBaseline: true } : {}),
    reports: { ...(values.json ? { json: values.json } : {}), ...(values.junit ? { junit: values.junit } : {}) },
    ...(io.signal ? { signal: io.signal } : {}),
    onSkipped: (message) => io.stderr(`skipped: ${message}\n`),
    onProgress: (p) => {
      last = progressLine(p);
      io.stderr(io.tty ? `\r${last}\u001b[K` : `${last}\n`);
    },
  });
  if (io.tty && last) io.stderr("\n");
  const { experiment, gate } = outcome;
  io.stdout(
    `experiment ${experiment.id} (${experiment.name}) on ${experiment.datasetName}@${experiment.datasetVersion}: ${experiment.status}\n`,
  );
  for (const [name, s] of Object.entries(experiment.summary?.scores ?? {})) {
    io.stdout(
      `  ${name}: mean ${s.mean.toFixed(3)} · pass rate ${s.passRate.toFixed(3)} · pass@k ${s.passAtK.toFixed(3)} · ±${s.repetitionStdev.toFixed(3)} between repetitions${s.errors ? ` · ${s.errors} scorer errors` : ""}\n`,
    );
  }
  const summary = experiment.summary;
  if (summary) {
    io.stdout(
      `  ${summary.runs} runs, ${summary.failedRuns} failed · ${summary.tokensIn} tokens in, ${summary.tokensOut} out, ${summary.modelCalls} model calls · $${summary.costUsd.toFixed(4)}${summary.unpriced.length ? ` (no price for ${summary.unpriced.join(", ")})` : ""}\n`,
    );
  }
  for (const note of gate.notes) io.stdout(`  note: ${note}\n`);
  for (const failure of gate.failures) io.stdout(`  FAIL ${failure.message}\n`);
  io.stdout(gate.passed ? "gate passed\n" : "gate failed\n");
  if (experiment.status === "interrupted") return 130;
  return gate.passed ? 0 : 1;
}

async function compare(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { sqlite: { type: "string" }, seed: { type: "string" } },
  });
  const [baseId, candidateId] = positionals;
  if (!baseId || !candidateId) throw new EvalError("GLOVE_EVAL_CONFIG", `compare needs two experiment ids.\n${USAGE}`);
  const storage = sqliteEvalStorage({ path: values.sqlite ?? ".glove/glove.db" });
  try {
    const side = async (id: string) => {
      const experiment = await storage.results.getExperiment(id);
      if (!experiment)
        throw new EvalError("GLOVE_EVAL_RUN", `No experiment ${id} in ${values.sqlite ?? ".glove/glove.db"}.`);
      return { experiment, results: await storage.results.results(id) };
    };
    const comparison = compareExperiments(await side(baseId), await side(candidateId), {
      ...(values.seed ? { seed: Number(values.seed) } : {}),
    });
    io.stdout(formatComparison(comparison) + "\n");
    return Object.values(comparison.scores).some((s) => s.verdict === "regressed") ? 1 : 0;
  } finally {
    await storage.close();
  }
}

async function addItem(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      "from-conversation": { type: "string" },
      dataset: { type: "string" },
      sqlite: { type: "string" },
      postgres: { type: "string" },
      schema: { type: "string" },
      redact: { type: "string" },
      "keep-personal-data": { type: "boolean" },
      id: { type: "string" },
    },
  });
  const conversationId = values["from-conversation"];
  if (!conversationId || !values.dataset) {
    throw new EvalError(
      "GLOVE_EVAL_CONFIG",
      `add-item needs --from-conversation <id> and --dataset <file.jsonl>.\n${USAGE}`,
    );
  }
  let redact: RedactItem;
  if (values.redact) {
    const module = (await import(resolveModule(values.redact))) as { default?: unknown };
    if (typeof module.default !== "function") {
      throw new EvalError(
        "GLOVE_EVAL_CONFIG",
        `${values.redact} must export default (item) => item, with personal data removed.`,
      );
    }
    redact = module.default as RedactItem;
  } else if (values["keep-personal-data"]) {
    redact = (item) => item;
  } else {
    throw new EvalError(
      "GLOVE_EVAL_CONFIG",
      "add-item copies a real conversation into a file kept in git: pass --redact <module> (its default export removes personal data) or --keep-personal-data.",
    );
  }
  const inspector = await openInspector(
    values.postgres
      ? { postgres: values.postgres, ...(values.schema ? { schema: values.schema } : {}) }
      : { sqlite: values.sqlite ?? ".glove/glove.db" },
  );
  try {
    const item = await itemFromConversation(inspector, conversationId, {
      redact,
      ...(values.id ? { id: values.id } : {}),
    });
    if (!item) {
      io.stdout("the redaction hook dropped the item; nothing written\n");
      return 0;
    }
    await appendItems(values.dataset, [item]);
    io.stdout(`added item ${item.id} to ${values.dataset}\n`);
    return 0;
  } finally {
    await inspector.close();
  }
}

function resolveModule(path: string): string {
  return new URL(`file://${resolve(path)}`).href;
}
