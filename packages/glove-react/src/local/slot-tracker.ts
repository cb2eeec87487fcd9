import type { Slot } from "glove-core";
import type { WireSlot } from "../types/wire.js";

export interface SlotEvents {
  pushed(slot: WireSlot): void;
  settled(slotId: string, status: "resolved" | "rejected" | "closed"): void;
}

/** Slots remembered after settling, for status lookups (the reducer keeps its own list). */
const KEEP_SETTLED = 200;

/**
 * Follows the tab's display stack and describes its changes as glove-server's slot events: a new
 * slot is pushed with its tool call, a slot leaving the stack is settled as what the UI did to it
 * (`claim` before resolving or rejecting) or `closed` (removed, e.g. by abort).
 */
export class SlotTracker {
  readonly #slots = new Map<string, WireSlot>();
  readonly #claims = new Map<string, "resolved" | "rejected">();

  constructor(private readonly events: SlotEvents) {}

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
      };
      this.#slots.set(slot.id, wire);
      this.events.pushed({ ...wire });
    }
    for (const wire of this.#slots.values()) {
      if ((wire.status === "pending" || wire.status === "shown") && !present.has(wire.id)) {
        const status = this.#claims.get(wire.id) ?? "closed";
        this.#claims.delete(wire.id);
        wire.status = status;
        this.events.settled(wire.id, status);
      }
    }
    this.#trim();
  }

  /** The slot is waiting for an answer and nobody answered it yet. */
  isPending(id: string): boolean {
    return this.#slots.get(id)?.status === "pending" && !this.#claims.has(id);
  }

  /** Marks how a pending slot is about to be settled; false when it is not pending. */
  claim(id: string, how: "resolved" | "rejected"): boolean {
    if (!this.isPending(id)) return false;
    this.#claims.set(id, how);
    return true;
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
