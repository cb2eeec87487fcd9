import type { ErrorInfo } from "./wire.js";
import type { SendStatus } from "./state.js";

/**
 * An entry whose message has alternatives (after a regenerate or an edit): which one is shown and
 * the ids to pass to `switchBranch` for each, oldest first.
 */
export interface EntryBranch {
  /** Position of the shown alternative in `siblings`. */
  index: number;
  count: number;
  /** The first message id of every alternative. */
  siblings: string[];
}

/** A message the user typed: from history, or optimistic until the history holds it. */
export interface UserEntry {
  kind: "user";
  /** Stable React key: never random, unchanged when an optimistic message is reconciled. */
  key: string;
  /** What the user typed (`pre_modified_text` when hooks or skills rewrote the stored text). */
  text: string;
  /** The stored text, when it differs from what the user typed. */
  storedText?: string;
  images?: string[];
  /** Absent for history; the send's progress for optimistic entries. */
  status?: SendStatus;
  error?: ErrorInfo;
  clientMessageId?: string;
  /** Index in the history, when the message is persisted. */
  messageIndex?: number;
  /** The stored message's id (pass it to `editMessage`). */
  messageId?: string;
  /** Its alternatives, when it has some (an edited message). */
  branch?: EntryBranch;
  /** Sends a failed message again (set by `useGlove` on failed entries). */
  retry?: () => void;
}

/** Text the agent wrote, as one timeline row (with its reasoning, when the model gave it). */
export interface AgentTextEntry {
  kind: "agent_text";
  key: string;
  text: string;
  reasoning?: string;
  messageIndex?: number;
  /** Streamed text of a model call that was aborted or failed before it was stored. */
  interrupted?: boolean;
  messageId?: string;
  /** Its alternatives, when it has some (a regenerated answer). */
  branch?: EntryBranch;
}

/** Where a tool call stands in the timeline: still running, or how it ended. */
export type ToolStatus = "running" | "success" | "error" | "aborted";

/** One tool call in the timeline, with its input and, once finished, its result. */
export interface ToolEntry {
  kind: "tool";
  key: string;
  /** The tool call's id: slots pushed by this call carry it as `toolCallId`. */
  id: string;
  name: string;
  input: unknown;
  status: ToolStatus;
  /** The result's data as text (or its message when it failed). */
  output?: string;
  /** The result's data as the tool returned it. */
  data?: unknown;
  /** Client-only payload for `renderResult` (never sent to a model). */
  renderData?: unknown;
  messageIndex?: number;
  /** Its alternatives, when the answer it starts has some (a regenerated answer that began with this call). */
  branch?: EntryBranch;
}

/** Where the history was summarised (`is_compaction`): the model sees only what follows. */
export interface CompactionEntry {
  kind: "compaction";
  key: string;
  summary: string;
  messageIndex: number;
}

/** Context a `/skill` injected before a user message (`is_skill_injection`): not something anyone typed. */
export interface SkillEntry {
  kind: "skill";
  key: string;
  text: string;
  messageIndex: number;
}

/** One row of the transcript `useGlove` derives for you to render; switch on `kind`. */
export type TimelineEntry = UserEntry | AgentTextEntry | ToolEntry | CompactionEntry | SkillEntry;
