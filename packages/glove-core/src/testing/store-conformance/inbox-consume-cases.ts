/**
 * Cases for `consumeInboxItem`, the conditional claim of an inbox answer that lets several
 * processes deliver one conversation's answers exactly once (docs/decisions/0024): resolved →
 * consumed in one conditional write, the first of any number of concurrent claims wins, also
 * across stores on the same session (other processes).
 */
import { assert, assertEqual, assertRejects, StoreConformanceError } from "./assertions.js";
import { hasCapability, type WithInbox } from "./capabilities.js";
import { inboxItem } from "./fixtures.js";
import type { CaseContext } from "./parity-cases.js";
import { assertRefused } from "./store-checks.js";
import type { StoreConformanceCase } from "./types.js";

type WithConsume = WithInbox & { consumeInboxItem(itemId: string): Promise<boolean> };

const RESOLVED_AT = "2026-01-03T00:00:00.000Z";
/** Items raced over at once, each claimed by every store several times. */
const RACED = 12;
const CLAIMS_PER_STORE = 3;

export function inboxConsumeCases({ define, open, required }: CaseContext): StoreConformanceCase[] {
  /** A store on the session with the inbox and consumeInboxItem, or undefined when it has no consumeInboxItem. */
  const openConsume = async (sessionId: string): Promise<WithConsume | undefined> => {
    const store = await open(sessionId);
    if (!hasCapability(store, "consumeInboxItem", required)) return undefined;
    if (!hasCapability(store, "inbox", required)) {
      throw new StoreConformanceError(
        `store "${store.identifier}" implements consumeInboxItem without the inbox group`,
      );
    }
    return store as WithConsume;
  };
  const resolved = (response: string) => ({ status: "resolved" as const, response, resolved_at: RESOLVED_AT });

  return [
    define(
      "consumeInboxItem: only a resolved item is consumed, once; pending and consumed ones answer false and stay as they are; unknown ids reject",
      async (session) => {
        const id = session("consume");
        const store = await openConsume(id);
        if (!store) return;
        await store.addInboxItem(inboxItem("a"));
        await store.addInboxItem(inboxItem("b", { blocking: true }));
        assertEqual(await store.consumeInboxItem("a"), false, "consumeInboxItem() of a pending item");
        assertEqual(
          await store.getInboxItems(),
          [inboxItem("a"), inboxItem("b", { blocking: true })],
          "getInboxItems() after claiming a pending item (must change nothing)",
        );

        // The answer comes from another process through its own store on the session.
        const webhook = await openConsume(id);
        assert(webhook, "a second store on the session must implement consumeInboxItem too");
        await webhook.updateInboxItem("b", resolved("Approved. «ok» ✓"));
        assertEqual(await store.consumeInboxItem("b"), true, "consumeInboxItem() of an item another store resolved");
        const consumedB = inboxItem("b", { blocking: true, ...resolved("Approved. «ok» ✓"), status: "consumed" });
        assertEqual(
          await webhook.getInboxItems(),
          [inboxItem("a"), consumedB],
          "getInboxItems() after the claim (response and resolved_at kept)",
        );
        assertEqual(await webhook.getResolvedInboxItems(), [], "getResolvedInboxItems() after the claim");
        assertEqual(
          await webhook.consumeInboxItem("b"),
          false,
          "consumeInboxItem() of a consumed item, by another store",
        );
        assertEqual(await store.consumeInboxItem("b"), false, "consumeInboxItem() of a consumed item, again");

        // Resolved again (an admin re-opening an answer) it may be claimed again: only the status decides.
        await webhook.updateInboxItem("b", { status: "resolved", response: "Changed my mind." });
        assertEqual(await store.consumeInboxItem("b"), true, "consumeInboxItem() of an item resolved again");
        assertEqual(
          (await store.getInboxItems())[1],
          { ...consumedB, response: "Changed my mind." },
          "the item claimed again",
        );

        await assertRejects(store.consumeInboxItem("missing"), "consumeInboxItem() of an unknown item id must reject");
        await assertRefused(
          () => store.consumeInboxItem("x".repeat(1025)),
          "consumeInboxItem() of an id longer than 1024 bytes",
        );
        const other = await openConsume(session("consume-other"));
        assert(other, "a store on another session must implement consumeInboxItem too");
        await assertRejects(other.consumeInboxItem("a"), "consumeInboxItem() of another session's item must reject");
      },
    ),

    define(
      "consumeInboxItem: of many claims at once from two stores on one session, exactly one per item wins",
      async (session) => {
        const id = session("consume-race");
        const a = await openConsume(id);
        if (!a) return;
        const b = await openConsume(id);
        assert(b, "a second store on the session must implement consumeInboxItem too");
        const ids = Array.from({ length: RACED }, (_, i) => `race-${i}`);
        for (const item of ids) await a.addInboxItem(inboxItem(item));
        for (const item of ids) await b.updateInboxItem(item, resolved(`answer ${item}`));
        const claims = ids.flatMap((item) =>
          Array.from({ length: CLAIMS_PER_STORE * 2 }, (_, i) =>
            (i % 2 === 0 ? a : b).consumeInboxItem(item).then((won) => ({ item, won })),
          ),
        );
        const outcomes = await Promise.all(claims);
        for (const item of ids) {
          const wins = outcomes.filter((o) => o.item === item && o.won).length;
          assertEqual(wins, 1, `claims of ${item} that won (of ${CLAIMS_PER_STORE * 2} at once from two stores)`);
        }
        assertEqual(
          await a.getInboxItems(),
          ids.map((item) => inboxItem(item, { ...resolved(`answer ${item}`), status: "consumed" })),
          "getInboxItems() after the race (every item consumed, nothing else changed)",
        );
      },
    ),
  ];
}
