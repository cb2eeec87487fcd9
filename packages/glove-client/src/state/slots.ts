import type { ClientSlot, GloveState, SlotIssue } from "../types/state.js";
import type { WireSlot } from "../types/wire.js";

/** Settled slots kept (like the server), so long sessions do not grow without bound. */
const KEEP_SETTLED = 200;

const isOpen = (slot: ClientSlot) => slot.status === "pending" || slot.status === "shown";

/** `slot_push`: a new slot gets the next order number; a known one (a replay) is updated in place. */
export function pushSlot(state: GloveState, wire: WireSlot): GloveState {
  const index = state.slots.findIndex((slot) => slot.id === wire.id);
  if (index !== -1) {
    const known = state.slots[index]!;
    // Settling is final: a replayed push never reopens a slot.
    const status = isOpen(known) ? wire.status : known.status;
    const slots = state.slots.slice();
    slots[index] = { ...known, ...wire, status, seq: known.seq };
    return { ...state, slots };
  }
  const slot: ClientSlot = { ...wire, seq: state.nextSlotSeq };
  return { ...state, slots: trim([...state.slots, slot]), nextSlotSeq: state.nextSlotSeq + 1 };
}

/** `slot_settled`: the slot keeps its place with its final status (for `stay` / `hide-on-complete`). */
export function settleSlot(state: GloveState, slotId: string, status: "resolved" | "rejected" | "closed"): GloveState {
  const index = state.slots.findIndex((slot) => slot.id === slotId);
  if (index === -1 || !isOpen(state.slots[index]!)) return state;
  const slots = state.slots.slice();
  const { issues: _issues, ...rest } = slots[index]!;
  slots[index] = { ...rest, status };
  return { ...state, slots };
}

/** Shows (or clears) why an answer was refused; only a pending slot can have issues. */
export function setSlotIssues(state: GloveState, slotId: string, issues: SlotIssue[] | null): GloveState {
  const index = state.slots.findIndex((slot) => slot.id === slotId);
  if (index === -1) return state;
  const current = state.slots[index]!;
  if (issues === null && current.issues === undefined) return state;
  if (issues !== null && current.status !== "pending") return state;
  const slots = state.slots.slice();
  const { issues: _old, ...rest } = current;
  slots[index] = issues === null ? rest : { ...rest, issues };
  return { ...state, slots };
}

function trim(slots: ClientSlot[]): ClientSlot[] {
  if (slots.length <= KEEP_SETTLED * 2) return slots;
  let excess = slots.length - KEEP_SETTLED;
  return slots.filter((slot) => {
    if (excess <= 0 || isOpen(slot)) return true;
    excess--;
    return false;
  });
}
