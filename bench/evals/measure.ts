import { performance } from "node:perf_hooks";
import { MemoryStore, type IGloveBuilder, type IGloveRunnable } from "glove-core";
import type { AgentFactory } from "glove-server";
import {
  exactMatch,
  memoryEvalStorage,
  runExperiment,
  sqliteEvalStorage,
  toolTrajectory,
  type Dataset,
  type EvalStorage,
} from "glove-evals";

export type Side = "direct" | "evals";

/** One timed pass of one side over every item × repetition. */
export interface PassResult {
  side: Side;
  /** Item runs made (items × repetitions). */
  runs: number;
  wallMs: number;
  /** process.cpuUsage() user + system over the pass. */
  cpuMs: number;
  /** Why runs failed (a wrong answer, an error, a score under 1); empty when all passed. */
  failures: string[];
}

export interface PassOptions {
  dataset: Dataset;
  agent: AgentFactory;
  /** Expected answer of each item, by id (the direct side checks every run against it). */
  expected: (itemId: string) => string;
  repetitions: number;
  concurrency: number;
  /** Where glove-evals keeps conversations and results: "memory" (default) or "sqlite" (an in-memory database). */
  storage?: "memory" | "sqlite";
}

/** Runs the agent alone: the same factory on a fresh MemoryStore per run, `processRequest` directly. */
export async function directPass(options: PassOptions): Promise<PassResult> {
  const tasks = options.dataset.items.flatMap((item) =>
    Array.from({ length: options.repetitions }, (_, repetition) => ({ item, repetition })),
  );
  const failures: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const { item, repetition } = tasks[next++]!;
      const conversationId = `${item.id}#${repetition}`;
      const store = new MemoryStore(conversationId);
      try {
        const made = await options.agent({ conversationId, agent: "agent", principal: { id: "bench" }, store });
        const glove =
          typeof (made as IGloveBuilder).build === "function"
            ? (made as IGloveBuilder).build(store)
            : (made as IGloveRunnable);
        const { text } = await glove.processRequest(
          typeof item.input === "string" ? item.input : item.input.join("\n"),
        );
        if (text !== options.expected(item.id)) failures.push(`${conversationId}: answered ${JSON.stringify(text)}`);
      } catch (error) {
        failures.push(`${conversationId}: ${(error as Error).message}`);
      }
    }
  };
  return timed("direct", tasks.length, failures, () =>
    Promise.all(Array.from({ length: options.concurrency }, worker)).then(() => undefined),
  );
}

/** Runs the same agent through glove-evals: an experiment (in-process glove-server), two scorers, results stored. */
export async function evalsPass(options: PassOptions): Promise<PassResult> {
  const storage: EvalStorage =
    options.storage === "sqlite" ? sqliteEvalStorage({ path: ":memory:" }) : memoryEvalStorage();
  const failures: string[] = [];
  try {
    return await timed("evals", options.dataset.items.length * options.repetitions, failures, async () => {
      const { experiment, results } = await runExperiment({
        dataset: options.dataset,
        agent: options.agent,
        storage,
        scorers: [exactMatch(), toolTrajectory()],
        repetitions: options.repetitions,
        concurrency: options.concurrency,
      });
      if (experiment.status !== "completed") failures.push(`experiment ${experiment.status}`);
      if (results.length !== options.dataset.items.length * options.repetitions) {
        failures.push(
          `${results.length} results stored, expected ${options.dataset.items.length * options.repetitions}`,
        );
      }
      for (const r of results) {
        if (r.status !== "done") failures.push(`${r.itemId}#${r.repetition}: ${r.status} ${r.error?.message ?? ""}`);
        for (const [name, s] of Object.entries(r.scores)) {
          if (s.score < 1) failures.push(`${r.itemId}#${r.repetition}: ${name} ${s.score} (${s.error ?? s.reason})`);
        }
      }
    });
  } finally {
    await storage.close();
  }
}

async function timed(side: Side, runs: number, failures: string[], work: () => Promise<void>): Promise<PassResult> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { side, runs, wallMs, cpuMs: (used.user + used.system) / 1000, failures };
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
