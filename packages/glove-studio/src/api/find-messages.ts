import { MAX_INSPECT_PAGE, type StorageInspector } from "glove-server";
import type { Message } from "glove-core";

/** Matches returned at most; the page steps through them. */
export const MAX_FOUND = 500;

function searchable(message: Message): string {
  const parts = [message.text, message.reasoning_content ?? ""];
  for (const call of message.tool_calls ?? []) parts.push(call.tool_name, JSON.stringify(call.input_args) ?? "");
  for (const result of message.tool_results ?? []) {
    parts.push(result.result.message ?? "");
    try {
      parts.push(JSON.stringify(result.result.data) ?? "");
    } catch {
      // A value that does not serialise has nothing to find.
    }
  }
  return parts.join("\n").toLowerCase();
}

/** Whether the page shows a message as a row of its own (tool results show on their calls). */
const ownRow = (m: Message) => !(m.tool_results?.length && !m.tool_calls?.length && !m.text);

/**
 * The rows whose text, tool calls or results contain `needle` (case-insensitive), in order: what
 * the browser's find-in-page cannot see in a virtualised timeline. A match in a tool result is
 * the row of its call (the message before). Read in pages, like every read of the studio.
 */
export async function findMessages(
  inspector: StorageInspector,
  id: string,
  needle: string,
): Promise<{ matches: number[]; truncated: boolean }> {
  const lower = needle.toLowerCase();
  const matches: number[] = [];
  let lastRow = 0;
  for (let offset = 0; ;) {
    const page = await inspector.messages(id, { offset, limit: MAX_INSPECT_PAGE });
    for (const [i, message] of page.messages.entries()) {
      const index = offset + i;
      const row = ownRow(message) ? index : lastRow;
      if (ownRow(message)) lastRow = index;
      if (matches.at(-1) !== row && searchable(message).includes(lower)) {
        if (matches.length === MAX_FOUND) return { matches, truncated: true };
        matches.push(row);
      }
    }
    offset += page.messages.length;
    if (page.messages.length === 0 || offset >= page.total) return { matches, truncated: false };
  }
}
