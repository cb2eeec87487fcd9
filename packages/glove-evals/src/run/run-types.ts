import type { Message } from "glove-core";
import type { ModelUsage } from "../costs/price-table.js";
import type { EvalItem } from "../dataset/item-schema.js";

/** A tool call the agent made, with how it ended. */
export interface ToolCallRecord {
  id: string;
  name: string;
  args: unknown;
  /** The result's status ("success", "error", "denied"…); undefined when no result was stored. */
  status?: string;
  /** The result's data as the tool returned it. */
  result?: unknown;
}

/** A question the agent put to the person: a form (a tool's `pushAndWait`) or a permission prompt. */
export interface RecordedQuestion {
  slotId: string;
  kind: "form" | "permission";
  /** The tool that asked (for a permission prompt: the tool that wants to run). */
  toolName: string | null;
  toolCallId: string | null;
  renderer: string;
  input: unknown;
  /** What the simulated person answered; null when nobody did. */
  answer: { resolve: unknown } | { reject: unknown } | null;
}

/** What happened, in order: calls as the model made them, questions as they were pushed, results as they came. */
export type TimelineEntry =
  | { kind: "tool_call"; id: string; name: string }
  | {
      kind: "question";
      slotId: string;
      question: "form" | "permission";
      toolName: string | null;
      toolCallId: string | null;
    }
  | { kind: "tool_result"; id: string | null; name: string; status: string };

/** How a run ended: "done", or why not. */
export type RunStatus = "done" | "error" | "timeout" | "aborted";

/** One run of one item: what the scorers are given. */
export interface ItemRun {
  item: EvalItem;
  /** 0-based repetition number. */
  repetition: number;
  /** The stored conversation of the run (open it in Glove Studio). */
  conversationId: string;
  status: RunStatus;
  error?: { code: string; message: string };
  /** The agent's last answer. */
  output: string;
  /** The last answer as JSON, when it is JSON (code fences allowed); undefined otherwise. */
  structured?: unknown;
  toolCalls: ToolCallRecord[];
  questions: RecordedQuestion[];
  timeline: TimelineEntry[];
  /** The conversation's messages (the active branch) at the end of the run. */
  messages: Message[];
  usage: { tokensIn: number; tokensOut: number; modelCalls: number };
  /** Per model (adapter name), for costs. */
  models: ModelUsage[];
  latencyMs: number;
  /** How many times the item was started again after a retryable provider error. */
  retries: number;
}

/** A scorer's verdict: a score from 0 to 1 and why. */
export interface Score {
  score: number;
  reason: string;
  /** Set when the scorer failed: the score is 0 and does not count as a verdict on the agent. */
  error?: string;
  /** Anything the scorer wants kept (an LLM judge's reasoning, its raw answer). */
  details?: Record<string, unknown>;
}
