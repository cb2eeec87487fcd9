import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ToolListChangedNotificationSchema, type Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";

/** Every tool the server lists, following `nextCursor` to the last page. */
export async function listAllTools(client: Client): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  const seen = new Set<string>();
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
    if (cursor !== undefined) {
      if (seen.has(cursor)) break; // a server repeating a cursor would loop forever
      seen.add(cursor);
    }
  } while (cursor !== undefined);
  return tools;
}

/**
 * Re-reads the tool list on `notifications/tools/list_changed` (all pages, unlike the SDK's
 * `listChanged` option, which reads one) and hands it to `onChanged`. A burst of notifications
 * costs one re-read per `debounceMs`; a notification arriving during a re-read schedules another,
 * so the last list always wins.
 */
export function watchToolList(
  client: Client,
  refresh: () => Promise<McpTool[]>,
  onChanged: (tools: McpTool[]) => void,
  onError: (error: unknown) => void,
  debounceMs = 50,
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let again = false;
  let stopped = false;
  const run = async () => {
    timer = undefined;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      const tools = await refresh();
      if (!stopped) onChanged(tools);
    } catch (error) {
      if (!stopped) onError(error);
    } finally {
      running = false;
      if (again && !stopped) {
        again = false;
        schedule();
      }
    }
  };
  const schedule = () => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void run(), debounceMs);
  };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => schedule());
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
