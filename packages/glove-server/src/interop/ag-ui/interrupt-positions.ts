import type { EventLog } from "../../conversations/event-log.js";

/** Per conversation log: the event id each interrupt's run stopped at, by question (slot) id. */
const positions = new WeakMap<EventLog, Map<string, number>>();

/** At most this many remembered per conversation: questions are few, old ones go first. */
const KEEP = 100;

/**
 * Remembers where a run stopped for these questions. The run that answers them continues from
 * there, so what happened meanwhile (a parallel call's result, text) reaches the page too.
 * In memory only: after a restart the answering run starts where the conversation stands.
 */
export function rememberInterrupts(log: EventLog, slotIds: readonly string[], eventId: number): void {
  let kept = positions.get(log);
  if (!kept) positions.set(log, (kept = new Map()));
  for (const id of slotIds) kept.set(id, eventId);
  while (kept.size > KEEP) kept.delete(kept.keys().next().value!);
}

/** Where the run that answers these questions continues from: the earliest stop, or `fallback`. */
export function resumePosition(log: EventLog, slotIds: readonly string[], fallback: number): number {
  const kept = positions.get(log);
  const known = slotIds.map((id) => kept?.get(id)).filter((id): id is number => id !== undefined);
  for (const id of slotIds) kept?.delete(id);
  return known.length > 0 ? Math.min(...known) : fallback;
}
