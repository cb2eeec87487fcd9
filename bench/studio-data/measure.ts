import type { StorageInspector } from "glove-server";
import { AGENTS, BIG_ID } from "./seed.js";

/** One measured read: what it is, and a call that answers something checkable. */
export interface Operation {
  name: string;
  run(inspect: StorageInspector): Promise<unknown>;
}

/** Page sizes the Studio asks for. */
export const LIST_PAGE = 50;
export const MESSAGE_PAGE = 100;

/**
 * The reads of Glove Studio, for data with `messages` messages in the long conversation: listing
 * pages (first, tenth via cursors, filtered, by status), counts, message pages at the start, middle
 * and end, and trace reads. Offsets scale with the size, so both runs read the same relative place.
 */
export function operations(messages: number): Operation[] {
  const at = (fraction: number) => Math.min(messages - MESSAGE_PAGE, Math.floor(messages * fraction));
  return [
    {
      name: "list: first page (50, counted: total and tokens)",
      run: (inspect) => inspect.listConversations({ limit: LIST_PAGE }),
    },
    deepPage(),
    {
      name: "list: filtered (agent + text)",
      run: (inspect) => inspect.listConversations({ limit: LIST_PAGE, agent: AGENTS[1], text: "refunds" }),
    },
    {
      name: "list: status waiting",
      run: (inspect) => inspect.listConversations({ limit: LIST_PAGE, status: "waiting" }),
    },
    {
      name: "count: owner filter (limit 1)",
      run: (inspect) => inspect.listConversations({ limit: 1, owner: "user-7" }),
    },
    {
      name: "messages: page at offset 0",
      run: (inspect) => inspect.messages(BIG_ID, { offset: 0, limit: MESSAGE_PAGE }),
    },
    {
      name: "messages: page at the middle",
      run: (inspect) => inspect.messages(BIG_ID, { offset: at(0.5), limit: MESSAGE_PAGE }),
    },
    {
      name: "messages: page at 99 %",
      run: (inspect) => inspect.messages(BIG_ID, { offset: at(0.99), limit: MESSAGE_PAGE }),
    },
    { name: "traces: newest 20", run: (inspect) => inspect.traces.list(BIG_ID, { limit: 20 }) },
    { name: "traces: one turn", run: (inspect) => inspect.traces.get(BIG_ID, "turn-0001") },
  ];
}

/** The 10th page, read through the cursor the 9th gave (the walk there happens once, unmeasured). */
function deepPage(): Operation {
  let cursor: string | undefined;
  return {
    name: "list: 10th page (cursor; the walk's totals)",
    run: async (inspect) => {
      if (cursor === undefined) {
        let page = await inspect.listConversations({ limit: LIST_PAGE });
        for (let n = 1; n < 9 && page.nextCursor; n++)
          page = await inspect.listConversations({ limit: LIST_PAGE, cursor: page.nextCursor });
        cursor = page.nextCursor ?? "";
      }
      return inspect.listConversations({ limit: LIST_PAGE, cursor });
    },
  };
}

/** Median milliseconds of `runs` calls after `warmUp` unmeasured ones. */
export async function medianMs(
  operation: Operation,
  inspect: StorageInspector,
  runs: number,
  warmUp = 3,
): Promise<number> {
  for (let i = 0; i < warmUp; i++) await operation.run(inspect);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await operation.run(inspect);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}
