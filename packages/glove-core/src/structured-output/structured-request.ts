import type { Message, ModelPromptResult } from "../types/index.js";
import type { AskOptions } from "../runtime/agent.js";
import { outputInstruction, repairMessage } from "./instructions.js";
import type { OutputSpec } from "./output-spec.js";
import { checkAnswer } from "./parse-answer.js";
import { StructuredOutputError } from "./structured-output-error.js";
import { answerText } from "../request-result.js";

/** A structured request's model result and parsed answer; the Glove adds `text` and `usage`. */
export type StructuredOutcome = ModelPromptResult & { output: unknown; attempts: number };

/** What a structured request needs from the Glove: one agent-loop run per attempt. */
export interface StructuredRun {
  spec: OutputSpec;
  /** The request's user message. */
  message: Message;
  /** The plugins' per-request reminder, kept on every attempt. */
  reminder?: string;
  /** Whether the model answering now has a native JSON-schema mode (read per attempt: setModel may swap it). */
  native: () => boolean;
  ask: (message: Message, options: AskOptions) => Promise<ModelPromptResult>;
}

/**
 * Runs the agent loop with `output` on every model call until the final answer parses, showing
 * the model what was wrong up to `spec.repairs` times. Every attempt is an ordinary user turn
 * and agent answer, so the stored conversation stays valid whatever happens.
 */
export async function runStructured(run: StructuredRun): Promise<StructuredOutcome> {
  const { spec } = run;
  let message = run.message;
  for (let attempt = 1; ; attempt++) {
    const instruction = run.native() ? undefined : outputInstruction(spec.request);
    const suffix = [run.reminder, instruction].filter(Boolean).join("\n\n") || undefined;
    const result = await run.ask(message, { systemPromptSuffix: suffix, output: spec.request });
    const rawText = answerText(result);
    if (result.messages.some((m) => m.is_refusal)) {
      throw new StructuredOutputError({
        reason: "refusal",
        rawText,
        issues: [],
        attempts: attempt,
        schemaName: spec.request.name,
      });
    }
    const check = checkAnswer(rawText, spec.schema);
    if (check.ok) return { ...result, output: check.value, attempts: attempt };
    if (attempt > spec.repairs) {
      throw new StructuredOutputError({
        reason: check.reason,
        rawText,
        issues: check.issues,
        attempts: attempt,
        schemaName: spec.request.name,
      });
    }
    message = { sender: "user", text: repairMessage(spec.request, check.issues) };
  }
}

/**
 * A hook or skill answered instead of the model: its text must already be the JSON (there is no
 * model turn to repair).
 */
export function structuredShortCircuit(spec: OutputSpec, result: ModelPromptResult | Message): StructuredOutcome {
  const messages = "messages" in result ? result.messages : [result];
  const base: ModelPromptResult = "messages" in result ? result : { messages, tokens_in: 0, tokens_out: 0 };
  const rawText = answerText(base);
  const check = checkAnswer(rawText, spec.schema);
  if (!check.ok) {
    throw new StructuredOutputError({
      reason: check.reason,
      rawText,
      issues: check.issues,
      attempts: 1,
      schemaName: spec.request.name,
    });
  }
  return { ...base, output: check.value, attempts: 1 };
}
