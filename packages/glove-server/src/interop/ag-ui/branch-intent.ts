import type { Message } from "glove-core";
import { conflict } from "../../errors.js";

/** What a run's new user message asks of the thread: a new turn, or a branch at an earlier point. */
export type UserIntent = { kind: "message" } | { kind: "regenerate" } | { kind: "edit"; messageId: string };

/** What the user typed (hooks may have rewritten the stored text; the original is kept beside it). */
const typed = (message: Message) => message.pre_modified_text ?? message.text;

/** The messages the user typed, in the active branch (not tool results, compaction or skill text). */
function userMessages(history: readonly Message[]): Message[] {
  return history.filter(
    (m) => m.sender === "user" && !m.tool_results?.length && !m.is_compaction_request && !m.is_skill_injection,
  );
}

/**
 * AG-UI has no regenerate or edit operation: clients (assistant-ui's reload and edit) send the
 * conversation up to the point they branch from, ending with a user message. Read against the
 * thread's active branch: a user message past the thread's last one is a new message; one at the
 * position of the last user message with its text is a regenerate; otherwise an edit of the user
 * message at that position. The user messages before it must be the thread's (409 otherwise: the
 * client is on a branch the server does not have active).
 */
export function userIntent(
  history: readonly Message[],
  newText: string,
  earlierTexts: ReadonlyArray<string | undefined>,
): UserIntent {
  const users = userMessages(history);
  const position = earlierTexts.length;
  if (position >= users.length) return { kind: "message" };
  const differs = earlierTexts.findIndex((text, i) => text !== typed(users[i]!));
  if (differs !== -1) {
    throw conflict(
      "GLOVE_BRANCH_MISMATCH",
      `The run's messages differ from the thread at user message ${differs + 1}: the page shows another branch than the thread's active one. Switch it with POST /conversations/:id/branches/:messageId, or reload the thread.`,
    );
  }
  const target = users[position]!;
  if (position === users.length - 1 && typed(target) === newText) return { kind: "regenerate" };
  if (target.id === undefined)
    throw conflict("GLOVE_BRANCH_MISMATCH", "That message was stored without an id and cannot be edited.");
  return { kind: "edit", messageId: target.id };
}
