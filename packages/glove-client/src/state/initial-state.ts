import type { ClientSlot, GloveState } from "../types/state.js";
import type { ConversationSnapshot, WireSlot } from "../types/wire.js";

/** The state before anything happened, or the state a snapshot describes (SSR, reconnects). */
export function initialState(snapshot?: ConversationSnapshot | null, conversationId: string | null = null): GloveState {
  const slots = numberSlots(snapshot?.slots ?? [], [], 0);
  return {
    conversationId: snapshot?.id ?? conversationId,
    messages: snapshot?.messages ?? [],
    branches: snapshot?.branches ?? [],
    clientKeys: {},
    streamingText: snapshot?.streamingText ?? "",
    liveTools: [],
    pending: [],
    interrupted: [],
    slots: slots.slots,
    nextSlotSeq: slots.next,
    tasks: snapshot?.tasks ?? [],
    inbox: snapshot?.inbox ?? [],
    stats: snapshot?.stats ?? { turns: 0, tokens_in: 0, tokens_out: 0 },
    busy: snapshot?.busy ?? false,
    turnId: snapshot?.turnId ?? null,
    isCompacting: false,
    connection: "idle",
    error: null,
  };
}

/**
 * Gives wire slots their order numbers, keeping the numbers (and issues) of slots already known,
 * so a snapshot after a reconnect does not reorder or duplicate anything.
 */
export function numberSlots(
  incoming: readonly WireSlot[],
  known: readonly ClientSlot[],
  nextSeq: number,
): { slots: ClientSlot[]; next: number } {
  const byId = new Map(known.map((slot) => [slot.id, slot]));
  const seen = new Set<string>();
  let next = nextSeq;
  const slots: ClientSlot[] = [];
  for (const wire of incoming) {
    if (seen.has(wire.id)) continue;
    seen.add(wire.id);
    const previous = byId.get(wire.id);
    const slot: ClientSlot = { ...wire, seq: previous?.seq ?? next++ };
    if (previous?.issues && wire.status === "pending") slot.issues = previous.issues;
    slots.push(slot);
  }
  slots.sort((a, b) => a.seq - b.seq);
  return { slots, next };
}
