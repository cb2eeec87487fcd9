import { EvalError } from "../errors.js";
import type { ItemRun, Score } from "../run/run-types.js";

/** What a scorer returns: a full verdict, or just the score (the reason is then empty). */
export type ScorerResult = Score | number | boolean;

/** Judges one run of one item. */
export interface Scorer {
  /** Unique within an experiment: results, thresholds and comparisons name scores by it. */
  name: string;
  /** A run passes this scorer at or above this score (pass@k, the pass rate). Default 1. */
  passAt?: number;
  score(run: ItemRun): ScorerResult | Promise<ScorerResult>;
}

/** Your own scorer: a name and a function of the run. */
export function defineScorer(
  name: string,
  score: (run: ItemRun) => ScorerResult | Promise<ScorerResult>,
  options: { passAt?: number } = {},
): Scorer {
  return { name, score, ...(options.passAt !== undefined ? { passAt: options.passAt } : {}) };
}

/**
 * Runs a scorer on a run. It never throws: a scorer that throws, or returns something that is not
 * a score from 0 to 1, gives a score of 0 with `error` set to the message, and the experiment goes on.
 */
export async function runScorer(scorer: Scorer, run: ItemRun): Promise<Score> {
  try {
    return normalize(await scorer.score(run), scorer.name);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { score: 0, reason: `scorer "${scorer.name}" failed`, error: message };
  }
}

function normalize(result: ScorerResult, name: string): Score {
  if (typeof result === "boolean") return { score: result ? 1 : 0, reason: "" };
  const verdict = typeof result === "number" ? { score: result, reason: "" } : result;
  if (
    !verdict ||
    typeof verdict.score !== "number" ||
    !Number.isFinite(verdict.score) ||
    verdict.score < 0 ||
    verdict.score > 1
  ) {
    throw new EvalError(
      "GLOVE_EVAL_SCORER",
      `Scorer "${name}" returned ${JSON.stringify(verdict)}; return a number from 0 to 1 or { score, reason }.`,
    );
  }
  return { ...verdict, reason: verdict.reason ?? "" };
}

/** Checks the names of an experiment's scorers: present and unique. */
export function checkScorers(scorers: Scorer[]): void {
  const seen = new Set<string>();
  for (const s of scorers) {
    if (!s || typeof s.score !== "function" || typeof s.name !== "string" || !s.name) {
      throw new EvalError(
        "GLOVE_EVAL_CONFIG",
        "Every scorer needs a name and a score(run) function (see defineScorer).",
      );
    }
    if (seen.has(s.name)) {
      throw new EvalError("GLOVE_EVAL_CONFIG", `Two scorers are named "${s.name}"; pass { name } to tell them apart.`);
    }
    seen.add(s.name);
  }
}
