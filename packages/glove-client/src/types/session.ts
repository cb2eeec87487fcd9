import type { GloveStore } from "../state/glove-store.js";
import type { SlotIssue } from "./state.js";
import type { ToolView } from "./tool.js";

/** An image to send with a message: base64 data and its media type. */
export interface ImageInput {
  data: string;
  media_type: string;
}

/** How answering a slot went. A refused answer never throws: the slot shows the issues and keeps waiting. */
export type SlotAnswerResult =
  | { ok: true }
  | { ok: false; reason: "invalid"; message: string; issues: SlotIssue[] }
  | { ok: false; reason: "unknown_slot" | "settled" | "unreachable" | "refused"; message: string };

/**
 * How a regenerate, edit or switch went. Refusals never throw: `busy` (a turn runs), `waiting` (a
 * question waits for an answer), `not_found` (no such message on the active branch, or in the
 * conversation), `invalid` (not a user message; nothing to regenerate), `conflict` (another tab
 * changed the branch first), `unreachable`, or `refused` (anything else, e.g. no conversation yet).
 */
export type BranchActionResult =
  | { ok: true }
  | {
      ok: false;
      reason: "busy" | "waiting" | "not_found" | "invalid" | "conflict" | "unreachable" | "refused";
      message: string;
    };

/**
 * One mode's engine behind `useGlove`: it owns the connection (or the tab's Glove) and feeds the
 * store. Both modes implement it, so the hook and the tests drive them the same way.
 */
export interface GloveSession {
  readonly mode: "local" | "server";
  readonly store: GloveStore;
  /** The open conversation (server mode) or session (local mode); null before there is one. */
  readonly conversationId: string | null;
  /** Loads history / connects. Called from an effect, never during render. */
  start(): void;
  /** Stops everything; the store stays readable. */
  dispose(): void;
  /** Shows the message at once and sends it when earlier ones are done; returns its client id. */
  sendMessage(text: string, images?: ImageInput[]): string;
  /** Sends a failed message again (same client id, so a server never runs it twice). */
  retry(clientMessageId: string): void;
  /** Stops the running turn (in server mode: for every tab) and cancels queued messages. */
  abort(): Promise<void>;
  resolveSlot(slotId: string, value: unknown): Promise<SlotAnswerResult>;
  rejectSlot(slotId: string, reason?: string): Promise<SlotAnswerResult>;
  /** Runs the last turn again from its user message; the old answer stays as a sibling branch. */
  regenerate(): Promise<BranchActionResult>;
  /** Replaces the user message `messageId` with `text` and continues from it; what followed stays on its branch. */
  editMessage(messageId: string, text: string): Promise<BranchActionResult>;
  /** Shows the branch through message `messageId` (e.g. an `EntryBranch` sibling id). */
  switchBranch(messageId: string): Promise<BranchActionResult>;
  newConversation(): void;
  switchConversation(id: string): void;
  /** The tools changed (local mode refolds them; server mode only renders with them). */
  setTools(tools: readonly ToolView[]): void;
}
