import type { DisplayStrategy, Slot, SlotOrigin } from "../types/index.js";

/** Where a slot stands for UIs: waiting, shown, answered, refused or removed. */
export type SlotStatus = "pending" | "shown" | "resolved" | "rejected" | "closed";

/** A slot as UIs see it (glove-server's `slot_push` events and snapshots, glove-react's state). */
export interface WireSlot {
  id: string;
  renderer: string;
  input: unknown;
  toolName: string | null;
  toolCallId: string | null;
  displayStrategy: DisplayStrategy | null;
  /** "wait": a pushAndWait the tool is blocked on; "forget": shown only. */
  mode: "wait" | "forget";
  status: SlotStatus;
  /** Asked inside a subagent: who asks what (see `Slot.origin`). Absent on the agent's own slots. */
  origin?: SlotOrigin;
}

/** Where a SlotBoard reports slots being pushed and settled. */
export interface SlotEvents {
  pushed(slot: WireSlot): void;
  settled(slotId: string, status: "resolved" | "rejected" | "closed"): void;
}

/** Settled slots kept for snapshots (so `stay` slots survive a reload). */
const KEEP_SETTLED = 200;

/**
 * Follows the display stack of one conversation and turns its changes into slot events: a new
 * slot is pushed with its tool call; a slot leaving the stack is settled as what the UI did to it
 * (`claim` before resolving or rejecting) or `closed` (removed, e.g. by abort). The first answer
 * wins: `claim` marks a slot answered in the same tick it checks it. Shared by glove-server and
 * glove-react's local mode, so both describe slots the same way.
 */
export class SlotBoard {
  readonly #slots = new Map<string, WireSlot>();
  readonly #claimed = new Map<string, "resolved" | "rejected">();

  constructor(private readonly events: SlotEvents) {}

  /** Called with the stack after every change; `isWaiting` tells pushAndWait slots apart. */
  sync(stack: readonly Slot<unknown>[], isWaiting: (id: string) => boolean): void {
    const present = new Set<string>();
    for (const slot of stack) {
      present.add(slot.id);
      if (this.#slots.has(slot.id)) continue;
      const mode = isWaiting(slot.id) ? "wait" : "forget";
      const wire: WireSlot = {
        id: slot.id,
        renderer: slot.renderer,
        input: slot.input,
        toolName: slot.toolName ?? null,
        toolCallId: slot.toolCallId ?? null,
        displayStrategy: slot.displayStrategy ?? null,
        mode,
        status: mode === "wait" ? "pending" : "shown",
        ...(slot.origin !== undefined ? { origin: slot.origin } : {}),
      };
      this.#slots.set(slot.id, wire);
      this.events.pushed({ ...wire });
    }
    for (const wire of this.#slots.values()) {
      if ((wire.status === "pending" || wire.status === "shown") && !present.has(wire.id)) {
        const status = this.#claimed.get(wire.id) ?? "closed";
        this.#claimed.delete(wire.id);
        wire.status = status;
        this.events.settled(wire.id, status);
      }
    }
    this.#trim();
  }

  get(id: string): WireSlot | undefined {
    return this.#slots.get(id);
  }

  /** The slot waits for an answer and nobody answered it yet. */
  isPending(id: string): boolean {
    return this.#slots.get(id)?.status === "pending" && !this.#claimed.has(id);
  }

  /** Marks a pending slot as answered; false when it is not pending or already claimed. */
  claim(id: string, how: "resolved" | "rejected"): boolean {
    if (!this.isPending(id)) return false;
    this.#claimed.set(id, how);
    return true;
  }

  /** Gives a claim back (the answer could not be delivered). */
  unclaim(id: string): void {
    this.#claimed.delete(id);
  }

  get pendingCount(): number {
    let count = 0;
    for (const slot of this.#slots.values()) if (slot.status === "pending") count++;
    return count;
  }

  list(): WireSlot[] {
    return [...this.#slots.values()].map((slot) => ({ ...slot }));
  }

  #trim(): void {
    if (this.#slots.size <= KEEP_SETTLED * 2) return;
    let excess = this.#slots.size - KEEP_SETTLED;
    for (const [id, slot] of this.#slots) {
      if (excess <= 0) break;
      if (slot.status === "pending" || slot.status === "shown") continue;
      this.#slots.delete(id);
      excess--;
    }
  }
}
