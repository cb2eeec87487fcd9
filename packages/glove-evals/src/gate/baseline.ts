import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import { EvalError } from "../errors.js";
import type { ExperimentRecord } from "../storage/records.js";

/** A baseline file, committed to the repository: the scores a change must not fall below. */
export const baselineSchema = z
  .object({
    datasetName: z.string(),
    datasetVersion: z.string(),
    variant: z.string(),
    /** Mean score per scorer. */
    scores: z.record(z.string(), z.number().min(0).max(1)),
    /** When it was written (ISO-8601) and by which experiment. */
    writtenAt: z.string(),
    experimentId: z.string(),
  })
  .strict();
export type Baseline = z.infer<typeof baselineSchema>;

export async function readBaseline(file: string): Promise<Baseline> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new EvalError(
      "GLOVE_EVAL_BASELINE",
      `Cannot read the baseline ${file} (${(error as Error).message}). Write one with \`glove-evals run <config> --update-baseline\`.`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new EvalError("GLOVE_EVAL_BASELINE", `The baseline ${file} is not JSON (${(error as Error).message}).`);
  }
  const checked = baselineSchema.safeParse(parsed);
  if (!checked.success) {
    throw new EvalError(
      "GLOVE_EVAL_BASELINE",
      `The baseline ${file} is malformed: ${checked.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}. Write it again with --update-baseline.`,
    );
  }
  return checked.data;
}

/** The baseline of a finished experiment. */
export function baselineOf(experiment: ExperimentRecord): Baseline {
  if (!experiment.summary) {
    throw new EvalError("GLOVE_EVAL_BASELINE", `Experiment ${experiment.id} has no summary yet (did it finish?).`);
  }
  return {
    datasetName: experiment.datasetName,
    datasetVersion: experiment.datasetVersion,
    variant: experiment.variant,
    scores: Object.fromEntries(Object.entries(experiment.summary.scores).map(([name, s]) => [name, round(s.mean)])),
    writtenAt: new Date().toISOString(),
    experimentId: experiment.id,
  };
}

export async function writeBaseline(file: string, baseline: Baseline): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(baseline, null, 2) + "\n", "utf8");
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;
