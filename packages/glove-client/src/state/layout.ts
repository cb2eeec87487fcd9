import type { ClientSlot } from "../types/state.js";
import type { TimelineEntry } from "../types/timeline.js";

/** Where slots go: after the call that pushed them, all before or after the transcript, or alone. */
export type RenderStrategy = "interleaved" | "slots-before" | "slots-after" | "slots-only";

/** One thing a transcript component (glove-react's `Render`, glove-vue's `GloveRender`) draws, in order. */
export type LayoutItem =
  | { type: "entry"; entry: TimelineEntry; index: number }
  | { type: "slot"; slot: ClientSlot }
  | { type: "streaming"; text: string }
  | { type: "slots"; slots: ClientSlot[]; key: string };

/**
 * The order a transcript draws things in, for a strategy: each entry, an interleaved slot right
 * after the call that pushed it, the streaming text before messages still queued, and the slots
 * grouped before or after for the other strategies. Every binding draws this same order.
 */
export function transcriptLayout(
  timeline: readonly TimelineEntry[],
  slots: ClientSlot[],
  streamingText: string,
  strategy: RenderStrategy,
): LayoutItem[] {
  if (strategy === "slots-only") return [{ type: "slots", slots, key: "slots" }];
  const items: LayoutItem[] = [];
  if (strategy === "slots-before" && slots.length) items.push({ type: "slots", slots, key: "slots-before" });
  const byCall = new Map<string, ClientSlot[]>();
  if (strategy === "interleaved") {
    for (const slot of slots)
      if (slot.toolCallId) byCall.set(slot.toolCallId, [...(byCall.get(slot.toolCallId) ?? []), slot]);
  }
  const placed = new Set<string>();
  timeline.forEach((entry, index) => {
    items.push({ type: "entry", entry, index });
    if (entry.kind !== "tool") return;
    for (const slot of byCall.get(entry.id) ?? []) {
      if (placed.has(slot.id)) continue;
      placed.add(slot.id);
      items.push({ type: "slot", slot });
    }
  });
  // The running call's text belongs before messages still waiting for their turn.
  if (streamingText) {
    const queued = items.findIndex(
      (item) => item.type === "entry" && item.entry.kind === "user" && item.entry.status === "queued",
    );
    items.splice(queued === -1 ? items.length : queued, 0, { type: "streaming", text: streamingText });
  }
  // Interleaved: slots whose call is not in the transcript (yet) still show, at the end.
  if (strategy === "interleaved")
    for (const slot of slots) if (!placed.has(slot.id)) items.push({ type: "slot", slot });
  if (strategy === "slots-after" && slots.length) items.push({ type: "slots", slots, key: "slots-after" });
  return items;
}
