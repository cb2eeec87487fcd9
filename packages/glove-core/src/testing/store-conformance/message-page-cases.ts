/**
 * Cases for `getMessagePage`, the paged read tools use on long conversations: every page equals
 * the same slice of `getMessages()`, across batches, writers and past the end; bad arguments reject.
 */
import type { StoreAdapter } from "../../types/index.js";
import { assertEqual, assertRejects } from "./assertions.js";
import { hasCapability } from "./capabilities.js";
import { conformanceMessages, plainMessages } from "./fixtures.js";
import type { CaseContext } from "./parity-cases.js";
import type { StoreConformanceCase } from "./types.js";

type WithPage = StoreAdapter & Required<Pick<StoreAdapter, "getMessagePage">>;

export function messagePageCases({ define, open, required }: CaseContext): StoreConformanceCase[] {
  const openPaged = async (sessionId: string): Promise<WithPage | undefined> => {
    const store = await open(sessionId);
    return hasCapability(store, "messagePage", required) ? (store as WithPage) : undefined;
  };
  /** Every window [offset, offset + limit) over the history matches getMessages(). */
  const checkWindows = async (store: WithPage, when: string) => {
    const all = await store.getMessages();
    for (const limit of [1, 3, 7, all.length + 5]) {
      for (let offset = 0; offset <= all.length + 1; offset += limit) {
        const page = await store.getMessagePage(offset, limit);
        assertEqual(
          page,
          { messages: all.slice(offset, offset + limit), total: all.length },
          `getMessagePage(${offset}, ${limit}) ${when}`,
        );
      }
    }
  };

  return [
    define(
      "getMessagePage: each page is the same slice of getMessages(), also after another writer appended and past the end",
      async (session) => {
        const id = session("page");
        const store = await openPaged(id);
        if (!store) return;
        assertEqual(
          await store.getMessagePage(0, 10),
          { messages: [], total: 0 },
          "getMessagePage(0, 10) of a new session",
        );
        await store.appendMessages(plainMessages("first", 5));
        await store.appendMessages(conformanceMessages());
        await checkWindows(store, "after two batches");
        const other = (await openPaged(id))!;
        await other.appendMessages(plainMessages("other-writer", 4));
        await checkWindows(store, "after another store on the same session appended");
        const page = await store.getMessagePage(2, 2);
        page.messages[0]!.text = "mutated";
        assertEqual(
          (await store.getMessagePage(2, 2)).messages[0]!.text,
          (await store.getMessages())[2]!.text,
          "a page is a copy",
        );
      },
    ),

    define("getMessagePage: a negative or fractional offset, or a limit of 0, rejects", async (session) => {
      const store = await openPaged(session("page-args"));
      if (!store) return;
      await store.appendMessages(plainMessages("m", 3));
      for (const [offset, limit] of [
        [-1, 5],
        [0.5, 5],
        [0, 0],
        [0, -2],
        [0, 1.5],
        [Number.NaN, 5],
      ] as const) {
        await assertRejects(
          Promise.resolve().then(() => store.getMessagePage(offset, limit)),
          `getMessagePage(${offset}, ${limit}) must reject`,
        );
      }
    }),
  ];
}
