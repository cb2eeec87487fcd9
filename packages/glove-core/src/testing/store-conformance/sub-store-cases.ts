/**
 * Sub-store cases (docs/decisions/0006 and 0020): durable children keep their history per
 * namespace; ephemeral ones start empty and get a new identifier on every call, in every store.
 */
import { assert, assertEqual } from "./assertions.js";
import { hasCapability, type WithSubStores } from "./capabilities.js";
import { conformanceMessages, plainMessages } from "./fixtures.js";
import type { CaseContext } from "./parity-cases.js";
import type { StoreConformanceCase } from "./types.js";

export function subStoreCases({ define, open, required }: CaseContext): StoreConformanceCase[] {
  return [
    define(
      "createSubAgentStore: durable children persist per namespace, ephemeral ones start empty, all isolated",
      async (session) => {
        const id = session("substores");
        const parent = await open(id);
        if (!hasCapability(parent, "subAgentStores", required)) return;
        const p = parent as WithSubStores;
        await p.appendMessages(plainMessages("parent", 2));

        const planner = await p.createSubAgentStore("planner", { durable: true });
        assert(planner.identifier !== parent.identifier, "a sub-store's identifier must differ from its parent's");
        assertEqual(await planner.getMessages(), [], "messages of a new durable sub-store (must not see the parent's)");
        await planner.appendMessages(conformanceMessages().slice(0, 3));
        await planner.addTokens({ tokens_in: 7, tokens_out: 3 });
        await planner.incrementTurn();
        const plannerAgain = await p.createSubAgentStore("planner", { durable: true });
        assertEqual(
          await plannerAgain.getMessages(),
          conformanceMessages().slice(0, 3),
          "durable sub-store requested again",
        );
        assertEqual(await plannerAgain.getTokenCount(), 10, "durable sub-store token count");
        const plannerReopened = await ((await open(id)) as WithSubStores).createSubAgentStore("planner", {
          durable: true,
        });
        assertEqual(
          await plannerReopened.getMessages(),
          conformanceMessages().slice(0, 3),
          "durable sub-store through a second parent store on the same session",
        );
        assertEqual(
          await plannerReopened.getTurnCount(),
          1,
          "durable sub-store turn count through a second parent store",
        );

        const reviewer = await p.createSubAgentStore("reviewer", { durable: true });
        assertEqual(await reviewer.getMessages(), [], "another namespace's durable sub-store");

        const ephemeral = await p.createSubAgentStore("planner");
        assertEqual(
          await ephemeral.getMessages(),
          [],
          "an ephemeral sub-store (must start empty, even for a durable namespace)",
        );
        await ephemeral.appendMessages(plainMessages("eph", 1));
        await ephemeral.addTokens({ tokens_in: 1, tokens_out: 1 });
        assertEqual(
          await (await p.createSubAgentStore("planner", { durable: false })).getMessages(),
          [],
          "a second ephemeral sub-store",
        );
        assertEqual(
          await plannerAgain.getMessages(),
          conformanceMessages().slice(0, 3),
          "the durable sub-store after ephemeral writes",
        );

        assertEqual(
          (await p.getMessages()).map((m) => m.text),
          ["parent#0", "parent#1"],
          "parent messages after sub-store writes",
        );
        assertEqual(await p.getTokenCount(), 0, "parent token count after sub-store writes");
        const otherSession = (await open(session("substores-other"))) as WithSubStores;
        if (otherSession.createSubAgentStore) {
          assertEqual(
            await (await otherSession.createSubAgentStore("planner", { durable: true })).getMessages(),
            [],
            "another session's durable sub-store of the same namespace",
          );
        }
      },
    ),

    define(
      "ephemeral sub-stores get a new identifier and an empty store on every call; a durable one keeps its identifier",
      async (session) => {
        const parent = await open(session("ephemeral-ids"));
        if (!hasCapability(parent, "subAgentStores", required)) return;
        const p = parent as WithSubStores;
        // The deprecated bare boolean (`durable`) must keep working.
        const durable = await p.createSubAgentStore("worker", true);
        const runs = [
          await p.createSubAgentStore("worker"),
          await p.createSubAgentStore("worker", false),
          await p.createSubAgentStore("worker"),
        ];
        const ids = [durable.identifier, ...runs.map((run) => run.identifier)];
        assert(
          new Set(ids).size === ids.length,
          `the durable sub-store and three ephemeral ones of a namespace must have distinct identifiers, got ${JSON.stringify(ids)}`,
        );
        for (const [i, run] of runs.entries()) {
          assertEqual(await run.getMessages(), [], `ephemeral sub-store ${i} before any write`);
          await run.appendMessages(plainMessages(`run${i}`, 1));
        }
        for (const [i, run] of runs.entries())
          assertEqual(
            (await run.getMessages()).map((m) => m.text),
            [`run${i}#0`],
            `ephemeral sub-store ${i} after each wrote`,
          );
        assertEqual(await durable.getMessages(), [], "the durable sub-store after the ephemeral ones wrote");
        assertEqual(
          (await p.createSubAgentStore("worker", true)).identifier,
          durable.identifier,
          "a durable sub-store requested again",
        );
      },
    ),
  ];
}
