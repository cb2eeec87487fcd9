/** What both servers of the server bench stream, and the agent glove-server runs. */
import { Displaymanager, Glove, type StoreAdapter } from "glove-core";
import { ScriptedModel } from "glove-core/testing";

export const env = (name: string, fallback: number): number => {
  const raw = process.env[name];
  const value = raw === undefined || raw === "" ? fallback : Number(raw);
  if (!Number.isFinite(value)) throw new Error(`${name} must be a number, got ${JSON.stringify(raw)}`);
  return value;
};

const VOCABULARY = [
  "the",
  "agent",
  "streams",
  "tokens",
  "to",
  "every",
  "browser",
  "tab",
  "while",
  "tools",
  "run",
  "server",
  "events",
  "carry",
  "an",
  "id",
  "so",
  "clients",
  "resume",
  "after",
  "reconnect",
  "and",
  "never",
  "miss",
  "a",
  "word",
  "of",
  "answer",
  "model",
  "turn",
  "conversation",
  "history",
];

/** A fixed answer of `words` words (deterministic, so both servers stream the same frames). */
export function answerText(words: number): string {
  return Array.from({ length: words }, (_, i) => VOCABULARY[(i * 7 + (i >> 3)) % VOCABULARY.length]).join(" ") + ".";
}

export interface BenchAgentOptions {
  /** Words in the streamed answer. Default 200. */
  words?: number;
  /** Characters per text_delta (≈ one token at 4). Default 4. */
  chunkSize?: number;
  /** ScriptedModel pause between chunks. Default 0. */
  delayMs?: number;
}

/** Bearer token of the bench's one user. */
export const TOKEN = "bench-user";

/** Same check on both servers: a bearer token, its value is the principal. */
export function bearer(header: string | null | undefined): string | undefined {
  return header?.startsWith("Bearer ") ? header.slice(7) : undefined;
}

/**
 * Agents of the bench: `stream` answers every message with the long text in small chunks;
 * `short` answers with five words (the memory measurement's "one short turn").
 */
export function benchAgents(options: BenchAgentOptions = {}) {
  const text = answerText(options.words ?? 200);
  const make =
    (answer: string) =>
    ({ store }: { store: StoreAdapter }) =>
      new Glove({
        store,
        model: new ScriptedModel([], {
          chunkSize: options.chunkSize ?? 4,
          delayMs: options.delayMs ?? 0,
          record: false,
          fallback: { text: answer },
        }),
        displayManager: new Displaymanager(),
        systemPrompt: "You are the server benchmark's agent.",
        compaction_config: { compaction_instructions: "Summarize.", max_turns: 1_000_000 },
      });
  return { stream: make(text), short: make("Noted, thanks for that.") };
}
