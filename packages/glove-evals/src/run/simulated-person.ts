import { extractJson, Glove, MemoryStore, type ModelAdapter } from "glove-core";
import type { EvalItem, PersonAnswer } from "../dataset/item-schema.js";
import { itemTurns } from "../dataset/item-schema.js";

/** A question as the simulated person sees it (a slot the agent pushed and waits on). */
export interface PersonQuestion {
  kind: "form" | "permission";
  /** The tool that asks (for a permission prompt: the tool that wants to run). */
  toolName: string | null;
  renderer: string;
  /** The slot's input: a form's question, or a permission prompt's `{ tool_name, input, call_id }`. */
  input: unknown;
  /** Set on a second try: why the server refused the previous answer (the tool's resolveSchema). */
  refused?: string;
}

/** An answer: the value to resolve the slot with, or a reason to reject it. */
export type PersonReply = { resolve: unknown } | { reject: unknown };

/** Answers the agent's questions during one run of one item. */
export interface PersonSession {
  answer(question: PersonQuestion): PersonReply | Promise<PersonReply>;
}

/** The person who answers forms and permission prompts during a run, made fresh for each run. */
export interface SimulatedPerson {
  forItem(item: EvalItem): PersonSession;
}

export interface ScriptedPersonOptions {
  /** Used after the item's own `answers`, for questions none of them matches. */
  defaults?: PersonAnswer[];
}

const NO_ANSWER: PersonReply = { reject: "The simulated person has no scripted answer for this question." };

/**
 * Answers from the item's `answers` (then `defaults`), matched in order by tool and kind; an
 * answer is used once unless it says `repeat`. A question nothing matches is refused, and the
 * refusal is recorded like any answer.
 */
export function scriptedPerson(options: ScriptedPersonOptions = {}): SimulatedPerson {
  return {
    forItem(item) {
      const rules = [...(item.answers ?? []), ...(options.defaults ?? [])].map((rule) => ({ rule, used: false }));
      return {
        answer(question) {
          const match = rules.find(({ rule, used }) => (!used || rule.repeat) && matches(rule, question));
          if (!match) return NO_ANSWER;
          match.used = true;
          return match.rule.reject !== undefined ? { reject: match.rule.reject } : { resolve: match.rule.resolve };
        },
      };
    },
  };
}

function matches(rule: PersonAnswer, question: PersonQuestion): boolean {
  if (rule.permission !== undefined && rule.permission !== (question.kind === "permission")) return false;
  return rule.tool === undefined || rule.tool === question.toolName;
}

export interface ModelPersonOptions {
  /** Any Glove model adapter (a fresh one per run when a function). */
  model: ModelAdapter | (() => ModelAdapter);
  /** Who the person is and what they want; an item's `persona` replaces it. */
  persona?: string;
}

/**
 * A model playing the user: it answers each form with JSON and each permission prompt with
 * yes or no, in character, knowing what the user asked for. A refused answer is shown to it
 * with the server's reasons for another try.
 */
export function modelPerson(options: ModelPersonOptions): SimulatedPerson {
  return {
    forItem(item) {
      const model = typeof options.model === "function" ? options.model() : options.model;
      const persona = item.persona ?? options.persona ?? "A customer who answers briefly and truthfully.";
      const glove = new Glove({
        model,
        store: new MemoryStore(`person-${item.id}`),
        systemPrompt: [
          `You play a person using an AI assistant. Persona: ${persona}`,
          `What you asked the assistant:\n${itemTurns(item)
            .map((t) => `- ${t}`)
            .join("\n")}`,
          "The assistant asks you questions. Answer a form with a bare JSON value only; answer a permission request with exactly yes or no.",
        ].join("\n\n"),
        builtIns: { tasks: false, inbox: false },
      }).build();
      return {
        async answer(question) {
          const ask =
            question.kind === "permission"
              ? `The assistant asks permission to run ${question.toolName ?? "a tool"} with ${JSON.stringify((question.input as { input?: unknown })?.input)}. Allow it? yes or no.`
              : `The assistant shows you a form (${question.toolName ?? question.renderer}): ${JSON.stringify(question.input)}. Your answer as JSON:`;
          const { text } = await glove.processRequest(
            question.refused ? `${ask}\nYour last answer was refused: ${question.refused}` : ask,
          );
          if (question.kind === "permission") return { resolve: /^\s*y(es)?\b/i.test(text) };
          const parsed = extractJson(text);
          return parsed
            ? { resolve: parsed.value }
            : { reject: `The person answered without JSON: ${text.slice(0, 100)}` };
        },
      };
    },
  };
}
