import { PERMISSION_REQUEST_RENDERER } from "glove-core/display-manager";
import { ServerRequestError } from "../errors.js";
import type { ConversationSnapshot } from "../types/wire.js";
import { ChatTransportError } from "./chat-transport-error.js";

/** What the page can do to get its messages back as they were: useChat dropped them before sending. */
const RESTORE =
  "Nothing was changed: load the chat's messages again (transport.loadMessages) to show them as they were.";

/**
 * The refusal of an edit or a regenerate while the reply waits for a person: the server would
 * refuse it (409) because the turn cannot answer two things at once, so it is refused before
 * anything is sent, in words a useChat page can act on. Undefined when nothing waits.
 */
export function waitingRefusal(snapshot: ConversationSnapshot): ChatTransportError | undefined {
  const waiting = snapshot.slots.filter((slot) => slot.mode === "wait" && slot.status === "pending");
  if (waiting.length === 0) return undefined;
  const asked = waiting.map((slot) =>
    slot.renderer === PERMISSION_REQUEST_RENDERER && slot.toolName
      ? `the approval of ${slot.toolName}`
      : `the question ${slot.id}`,
  );
  return new ChatTransportError(
    "GLOVE_CHAT_WAITING_FOR_ANSWER",
    `The reply waits for ${asked.join(", ")}: approve or deny it (or answer the question), or stop the turn, then edit or regenerate again. ${RESTORE}`,
  );
}

/**
 * The server's 409 to an edit or a regenerate (a turn started, or a question was asked, after the
 * page looked) as the same kind of refusal; any other error as it is.
 */
export function branchRefusal(error: unknown): unknown {
  if (!ServerRequestError.isInstance(error) || error.status !== 409) return error;
  if (error.code === "GLOVE_WAITING_FOR_ANSWER")
    return new ChatTransportError(
      "GLOVE_CHAT_WAITING_FOR_ANSWER",
      `The reply waits for an answer: approve or deny it (or answer the question), or stop the turn, then edit or regenerate again. ${RESTORE}`,
      error,
    );
  if (error.code === "GLOVE_BUSY")
    return new ChatTransportError(
      "GLOVE_CHAT_BUSY",
      `A reply is still being written: stop it (stop()) or let it end, then edit or regenerate again. ${RESTORE}`,
      error,
    );
  return error;
}
