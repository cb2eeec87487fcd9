import type { DisplayStrategy } from "glove-core";
import { PERMISSION_REQUEST_RENDERER } from "glove-core/display-manager";
import type { ClientSlot } from "../types/state.js";

/**
 * The strategy a slot is shown with: the tool's, else `hide-on-complete` for permission prompts
 * (an answered prompt has nothing left to say), else `stay`.
 */
export function strategyOf(slot: Pick<ClientSlot, "displayStrategy" | "renderer">): DisplayStrategy {
  if (slot.displayStrategy) return slot.displayStrategy;
  return slot.renderer === PERMISSION_REQUEST_RENDERER ? "hide-on-complete" : "stay";
}

const isOpen = (slot: ClientSlot) => slot.status === "pending" || slot.status === "shown";

/** Which slots count as "the same tool" for hide-on-new: a permission prompt is the runtime's, not the tool's. */
const groupOf = (slot: ClientSlot) =>
  slot.renderer === PERMISSION_REQUEST_RENDERER
    ? `\u0000permission:${slot.toolName ?? ""}`
    : (slot.toolName ?? slot.renderer);

/**
 * The slots a transcript shows, in the order they appeared:
 * - `stay`: always, also once answered (the renderer gets the final `status`);
 * - `hide-on-complete`: while pending (pushAndWait) or shown (pushAndForget), hidden once settled;
 * - `hide-on-new`: until a newer slot of the same tool appears (whatever that slot's status).
 */
export function visibleSlots(slots: readonly ClientSlot[]): ClientSlot[] {
  const newest = new Map<string, number>();
  for (const slot of slots) {
    const group = groupOf(slot);
    newest.set(group, Math.max(newest.get(group) ?? -Infinity, slot.seq));
  }
  return slots
    .filter((slot) => {
      switch (strategyOf(slot)) {
        case "hide-on-complete":
          return isOpen(slot);
        case "hide-on-new":
          return newest.get(groupOf(slot)) === slot.seq;
        default:
          return true;
      }
    })
    .sort((a, b) => a.seq - b.seq);
}
