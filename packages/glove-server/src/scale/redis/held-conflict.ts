import type { WireSlot } from "glove-core";
import { waitingConflict } from "../../conversations/waiting-turns.js";
import { conflict, type HttpError } from "../../errors.js";
import type { ConversationKeys } from "./keys.js";
import type { ScaleShared } from "./scale-shared.js";

type Reply = [Error | null, unknown][] | null;

/**
 * The 409 for new work (a message, a regenerate, an edit, a switch) while a turn holds the
 * conversation on some instance: `GLOVE_WAITING_FOR_ANSWER` when the turn shows a question, as
 * once it has left its worker (one code for one state), `GLOVE_BUSY` otherwise.
 */
export async function heldConflict(shared: ScaleShared, keys: ConversationKeys): Promise<HttpError> {
  const reply = (await shared.redis.multi().hgetall(keys.slots).hgetall(keys.slotStatus).exec()) as Reply;
  const slots = (reply?.[0]?.[1] ?? {}) as Record<string, string>;
  const statuses = (reply?.[1]?.[1] ?? {}) as Record<string, string>;
  const asking = Object.entries(slots)
    .map(([id, json]) => ({ ...(JSON.parse(json) as WireSlot), status: statuses[id] ?? "pending" }))
    .filter((slot) => slot.mode === "wait" && slot.status === "pending");
  if (asking.length > 0) return waitingConflict(asking);
  return conflict(
    "GLOVE_BUSY",
    "A turn is already running in this conversation. Wait for turn_end, or abort it first.",
  );
}
