import type { DisplayManagerAdapter, DisplayStrategy, SlotOrigin, SlotPush } from "./display.js";

/**
 * What a stored wait is: a question put to a person (a `pushAndWait` slot, a permission prompt,
 * an MCP elicitation) or a recorded step (work a tool did once and must not redo on a replay).
 */
export type StoredWaitKind = "question" | "step";

/** Where a stored wait stands. Steps are stored resolved. */
export type StoredWaitStatus = "pending" | "resolved" | "rejected" | "cancelled";

/**
 * One wait of a tool call, kept in the conversation's store so it outlives the process: recorded
 * before the question is shown, settled in the store before the waiter wakes. A call that runs
 * again (after a restart) meets its waits in the same order and gets the recorded answers back,
 * matched by `position`.
 */
export interface StoredWait {
  /** The slot's id (questions) or the step's id. */
  id: string;
  kind: StoredWaitKind;
  /** The tool call that waits. */
  toolCallId: string;
  toolName: string;
  /** Its place among the call's stored waits and steps: 0, 1, 2 … */
  position: number;
  /** Questions: the renderer that draws the slot. Steps: the step's name. */
  renderer: string;
  /** Questions: what the renderer draws. Steps: nothing. */
  input: unknown;
  displayStrategy?: DisplayStrategy | undefined;
  status: StoredWaitStatus;
  /** The answer (resolved), the reason (rejected, cancelled) or the step's result. */
  value?: unknown;
  /** ISO-8601 timestamps. */
  created_at: string;
  settled_at: string | null;
}

/** How a pending wait ends. */
export interface WaitOutcome {
  status: Exclude<StoredWaitStatus, "pending">;
  value?: unknown;
  settled_at: string;
}

/** What `settleWait` did: `won` when this call settled the wait (it was pending), and the wait as stored now. */
export interface WaitSettlement {
  won: boolean;
  wait: StoredWait | undefined;
}

/**
 * The stored waits of one running tool call: its questions and steps in order. A call that runs
 * again meets them at the same positions and gets the recorded outcomes back.
 */
export interface CallWaits {
  /**
   * Shows `slot` as a stored question (or finds its recorded answer) and waits for the answer;
   * `onShown` hears the slot id once it is on the display stack.
   */
  question<O>(display: DisplayManagerAdapter, slot: SlotPush<unknown>, onShown?: (slotId: string) => void): Promise<O>;
  /** Runs `work` once for the call (see `ToolDisplay.step`). */
  step<T>(name: string, work: () => T | Promise<T>): Promise<T>;
}

/** A question stored for a person, still waiting for the answer. */
export interface PendingQuestion {
  /** The slot's id: answer it with `glove.resolveSlot(id, value)` (or the display manager, while shown). */
  id: string;
  renderer: string;
  input: unknown;
  toolCallId: string;
  toolName: string;
  displayStrategy?: DisplayStrategy | undefined;
  /** ISO-8601: when it was asked. */
  created_at: string;
  /**
   * A subagent's question (asked in its own store, reached through the unanswered subagent calls):
   * the subagents' path and the inner tool and input. `toolName` and `toolCallId` are that inner call's.
   */
  origin?: SlotOrigin | undefined;
}

/** Why `resolveSlot` refused an answer; the question (if any) stays as it was. */
export type SlotAnswerRefusal = "unknown_slot" | "already_answered" | "call_answered" | "invalid";

/** An answer to a stored question: a value, or a refusal (the tool's wait then fails). */
export type StoredAnswer = { resolve: unknown } | { reject: unknown };

/** Which stored waits to read. */
export interface WaitFilter {
  status?: StoredWaitStatus | undefined;
  toolCallId?: string | undefined;
}
