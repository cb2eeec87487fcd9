import type { AgUiMessage } from "./events.js";

/** A message of the run's `messages` (what the page shows), as far as matching it needs. */
export interface PageMessage {
  id: string;
  role: string;
  /** Its text: string content (text parts joined for a user message), "" otherwise. */
  text: string;
  /** A tool message's call. */
  toolCallId?: string;
  /** An assistant message's calls. */
  toolCallIds?: string[];
}

/** What makes two messages the same one, on the page and in the thread. */
function sameness(message: { role: string; text: string; toolCallId?: string; toolCallIds?: string[] }): string {
  if (message.role === "tool") return `tool\u0000${message.toolCallId ?? ""}`;
  return `${message.role}\u0000${message.text}\u0000${(message.toolCallIds ?? []).join("\u0000")}`;
}

function storedSameness(message: AgUiMessage): string {
  if (message.role === "tool") return sameness({ role: "tool", text: "", toolCallId: message.toolCallId });
  const toolCallIds = message.role === "assistant" ? (message.toolCalls ?? []).map((call) => call.id) : [];
  return sameness({ role: message.role, text: message.content ?? "", toolCallIds });
}

/**
 * The ids the page knows the thread's messages by: the thread's messages (under their stored
 * ids), from the first, matched in order to the same messages on the page, up to the first one
 * the page does not have. AG-UI clients keep the messages a snapshot names by known ids in their
 * own order, drop the others they hold, and append the snapshot's unknown ones: a snapshot that
 * named a later message by the page's id and an earlier one by its stored id would reorder the
 * page (the run's own messages moved before the earlier ones). Named this way, a known prefix and
 * then the rest, the page ends up in the thread's order. Linear time.
 */
export function pageIds(stored: readonly AgUiMessage[], page: readonly PageMessage[]): Map<string, string> {
  // Per kind of message, the page's positions in order and how many of them are used up.
  const positions = new Map<string, { at: number[]; next: number }>();
  page.forEach((message, index) => {
    const key = sameness(message);
    const entry = positions.get(key);
    if (entry) entry.at.push(index);
    else positions.set(key, { at: [index], next: 0 });
  });
  const ids = new Map<string, string>();
  let cursor = 0;
  for (const message of stored) {
    const entry = positions.get(storedSameness(message));
    if (!entry) break;
    while (entry.next < entry.at.length && entry.at[entry.next]! < cursor) entry.next++;
    const at = entry.at[entry.next];
    if (at === undefined) break;
    entry.next++;
    cursor = at + 1;
    if (page[at]!.id !== message.id) ids.set(message.id, page[at]!.id);
  }
  return ids;
}

/** The names a snapshot uses: the page's ids for what it has, overridden by the ids this run streamed. */
export function snapshotNames(
  stored: readonly AgUiMessage[],
  page: readonly PageMessage[],
  streamed: ReadonlyMap<string, string> = new Map(),
): Map<string, string> {
  const names = pageIds(stored, page);
  for (const [storedId, streamedId] of streamed) names.set(storedId, streamedId);
  return names;
}
