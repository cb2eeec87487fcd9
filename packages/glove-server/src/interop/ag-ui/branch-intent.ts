import type { Message } from "glove-core";
import { conflict } from "../../errors.js";

/** What a run's new user message asks of the thread: a new turn, or a branch at an earlier point. */
export type UserIntent = { kind: "message" } | { kind: "regenerate" } | { kind: "edit"; messageId: string };

/** What the user typed (hooks may have rewritten the stored text; the original is kept beside it). */
const typed = (message: Message) => message.pre_modified_text ?? message.text;

/** A page's copy of a typed message: as typed, or as stored (a snapshot carries the stored text). */
const sameMessage = (text: string | undefined, message: Message) => text === typed(message) || text === message.text;

/** The messages people see as the user's in snapshots (toAgUiMessages): not compaction bookkeeping. */
const shownAsUser = (m: Message) =>
  m.sender === "user" && m.text !== "" && !m.is_compaction && !m.is_compaction_request;

/** The messages the user typed, in the active branch (not tool results, compaction or skill text). */
function userMessages(history: readonly Message[]): Message[] {
  return history.filter((m) => shownAsUser(m) && !m.tool_results?.length && !m.is_skill_injection);
}

/**
 * The page's earlier user messages that the user typed. A page also holds, once a snapshot brought
 * them, user messages Glove wrote (a skill's text, an inbox answer): those are left out, as they
 * are on the thread's side, whether the page has them or not.
 */
function typedByUser(history: readonly Message[], earlierTexts: ReadonlyArray<string | undefined>) {
  const users = new Set(userMessages(history));
  const written = new Set(history.filter((m) => shownAsUser(m) && !users.has(m)).map((m) => m.text));
  return earlierTexts.filter((text) => text === undefined || !written.has(text));
}

/**
 * AG-UI has no regenerate or edit operation: clients (assistant-ui's reload and edit) send the
 * conversation up to the point they branch from, ending with a user message. Read against the
 * thread's active branch: a user message past the thread's last one is a new message; one at the
 * position of the last user message with its text is a regenerate; otherwise an edit of the user
 * message at that position. Either way the user messages before it must be the thread's, as far
 * as the thread has them (409 otherwise: the page shows a branch the thread does not have active,
 * and a new message from there would reach the model after messages the page does not show).
 */
export function userIntent(
  history: readonly Message[],
  newText: string,
  earlierTexts: ReadonlyArray<string | undefined>,
): UserIntent {
  const users = userMessages(history);
  const earlier = typedByUser(history, earlierTexts);
  const differs = earlier.findIndex((text, i) => i < users.length && !sameMessage(text, users[i]!));
  if (differs !== -1) {
    throw conflict(
      "GLOVE_BRANCH_MISMATCH",
      `The run's messages differ from the thread at user message ${differs + 1}: the page shows another branch than the thread's active one. Switch it with POST /conversations/:id/branches/:messageId, or reload the thread.`,
    );
  }
  const position = earlier.length;
  if (position >= users.length) return { kind: "message" };
  const target = users[position]!;
  if (position === users.length - 1 && sameMessage(newText, target)) return { kind: "regenerate" };
  if (target.id === undefined)
    throw conflict("GLOVE_BRANCH_MISMATCH", "That message was stored without an id and cannot be edited.");
  return { kind: "edit", messageId: target.id };
}
