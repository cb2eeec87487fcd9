import { z } from "zod";

/** How the simulated person answers one kind of question (a form of `tool`, or a permission prompt). */
export const personAnswerSchema = z
  .object({
    /** The tool whose question this answers (a form's tool, or the tool a permission prompt is for). Absent: any. */
    tool: z.string().min(1).optional(),
    /** True: answers permission prompts only; false: forms only; absent: either. */
    permission: z.boolean().optional(),
    /** The answer: a form's value, or for a permission prompt `true` / `false` / `{ granted, remember }`. */
    resolve: z.unknown().optional(),
    /** Refuse the question with this reason instead. */
    reject: z.string().optional(),
    /** Use this answer for every matching question (default: once, in order). */
    repeat: z.boolean().optional(),
  })
  .strict()
  .refine((a) => (a.resolve === undefined) !== (a.reject === undefined), {
    message: "an answer has exactly one of resolve or reject",
  });

/** A tool call the agent is expected to make; `args` are matched as a subset of its input. */
export const expectedToolCallSchema = z
  .object({ name: z.string().min(1), args: z.record(z.string(), z.unknown()).optional() })
  .strict();

/** One dataset item, as a line of a `.jsonl` file (or an element of a `.json` array). */
export const evalItemSchema = z
  .object({
    /** Stable id (results, resume and compare match items by it). Default: a hash of `input`. */
    id: z.string().min(1).max(200).optional(),
    /** The user's message, or the user's messages of a multi-turn script (one per turn, in order). */
    input: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
    expected: z
      .object({
        /** The expected final answer: text, or a JSON value for structured output. */
        output: z.unknown().optional(),
        /** The expected trajectory. */
        toolCalls: z.array(expectedToolCallSchema).optional(),
      })
      .strict()
      .optional(),
    /** The simulated person's scripted answers to the agent's forms and permission prompts. */
    answers: z.array(personAnswerSchema).optional(),
    /** A persona for a model playing the user (`modelPerson`). */
    persona: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

export type PersonAnswer = z.infer<typeof personAnswerSchema>;
export type ExpectedToolCall = z.infer<typeof expectedToolCallSchema>;
/** An item as written in a dataset file. */
export type EvalItemInput = z.input<typeof evalItemSchema>;
/** An item as loaded: `id` always set. */
export type EvalItem = z.output<typeof evalItemSchema> & { id: string };

/** The user's messages of an item, one per turn. */
export function itemTurns(item: Pick<EvalItem, "input">): string[] {
  return typeof item.input === "string" ? [item.input] : item.input;
}
