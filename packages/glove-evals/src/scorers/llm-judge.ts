import { z } from "zod";
import { Glove, MemoryStore, StructuredOutputError, type ModelAdapter } from "glove-core";
import { EvalError } from "../errors.js";
import type { ItemRun } from "../run/run-types.js";
import { itemTurns } from "../dataset/item-schema.js";
import type { Scorer } from "./scorer.js";

export interface LlmJudgeOptions {
  name?: string;
  /** Any Glove model adapter (a fresh one per judgement when a function: adapters with state stay apart). */
  model: ModelAdapter | (() => ModelAdapter);
  /** What a good answer is, in words: the judge scores against it. */
  rubric: string;
  /** The judge's scale; its score is mapped to 0..1. Default 1 to 5. */
  scale?: { min: number; max: number };
  /** Repair turns for an answer that is not the verdict's JSON, before the score is an error. Default 2. */
  retries?: number;
  /** Default 0.6. */
  passAt?: number;
}

/** The verdict the judge must answer with (structured output). */
export const judgeVerdictSchema = z.object({
  reasoning: z.string().describe("Why this score, step by step, citing the transcript."),
  score: z.number().describe("The score on the rubric's scale."),
});

/**
 * An LLM as judge: the model reads the rubric, the item and the run (the user's messages, the
 * tool calls, the answer, the expected output when there is one) and answers `{ reasoning, score }`
 * as structured output. The reasoning is kept in the score's `details`. An answer off the schema is
 * repaired up to `retries` times; after that the score is an error (the experiment goes on).
 */
export function llmJudge(options: LlmJudgeOptions): Scorer {
  const scale = options.scale ?? { min: 1, max: 5 };
  if (!(scale.max > scale.min))
    throw new EvalError("GLOVE_EVAL_CONFIG", "llmJudge: scale.max must be above scale.min.");
  const verdict = judgeVerdictSchema.extend({ score: z.number().min(scale.min).max(scale.max) });
  const name = options.name ?? "llm_judge";
  return {
    name,
    passAt: options.passAt ?? 0.6,
    async score(run: ItemRun) {
      const model = typeof options.model === "function" ? options.model() : options.model;
      const judge = new Glove({
        model,
        store: new MemoryStore(`judge-${run.conversationId}`),
        systemPrompt: [
          "You grade an AI agent's work against a rubric. Be strict and specific.",
          `Rubric:\n${options.rubric}`,
          `Answer with JSON {"reasoning": string, "score": number from ${scale.min} to ${scale.max}}.`,
        ].join("\n\n"),
        builtIns: { tasks: false, inbox: false },
      }).build();
      try {
        const { output, attempts } = await judge.processRequest(transcript(run), {
          output: verdict,
          outputName: "verdict",
          outputRepairs: options.retries ?? 2,
        });
        return {
          score: (output.score - scale.min) / (scale.max - scale.min),
          reason: output.reasoning.length > 300 ? `${output.reasoning.slice(0, 300)}…` : output.reasoning,
          details: { reasoning: output.reasoning, rawScore: output.score, attempts, judge: model.name },
        };
      } catch (error) {
        if (StructuredOutputError.isInstance(error)) {
          throw new EvalError(
            "GLOVE_EVAL_JUDGE",
            `${name}: the judge answered off the schema ${error.attempts} times (${error.reason}): ${error.rawText.slice(0, 200)}`,
            { cause: error },
          );
        }
        throw error;
      }
    },
  };
}

/** What the judge reads. */
export function transcript(run: ItemRun): string {
  const parts = [
    `User message(s):\n${itemTurns(run.item)
      .map((t) => `- ${t}`)
      .join("\n")}`,
  ];
  if (run.toolCalls.length) {
    parts.push(
      `Tool calls:\n${run.toolCalls.map((c) => `- ${c.name}(${JSON.stringify(c.args)}) → ${c.status ?? "no result"}`).join("\n")}`,
    );
  }
  if (run.questions.length) {
    parts.push(
      `Questions to the user:\n${run.questions
        .map((q) => `- ${q.kind} ${q.toolName ?? ""}: answered ${JSON.stringify(q.answer)}`)
        .join("\n")}`,
    );
  }
  parts.push(`Agent's final answer:\n${run.output || "(none)"}`);
  if (run.item.expected?.output !== undefined)
    parts.push(`Expected answer:\n${JSON.stringify(run.item.expected.output)}`);
  return parts.join("\n\n");
}
