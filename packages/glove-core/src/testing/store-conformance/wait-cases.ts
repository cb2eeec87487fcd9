/**
 * Cases for durable questions (`addWait`, `settleWait`, `getWaits`): waits a tool call records so
 * they outlive the process. What makes them durable is checked through a second store on the same
 * session (another process): it sees the waits, and of two stores settling one wait exactly one
 * wins. Data reads back as its JSON form, NUL and lone surrogates included; keys and fields no
 * store can keep are refused with GLOVE_STORE_INVALID, as for every record (docs/decisions/0011).
 */
import type { StoredWait, WaitOutcome } from "../../types/index.js";
import { assert, assertEqual, StoreConformanceError } from "./assertions.js";
import { hasCapability, type WithWaits } from "./capabilities.js";
import { storedWait } from "./fixtures.js";
import type { CaseContext } from "./parity-cases.js";
import { WaitGenerator, WaitModel, type WaitStep } from "./random-waits.js";
import { assertRefused } from "./store-checks.js";
import type { StoreConformanceCase } from "./types.js";

/** Steps per random session. */
const STEPS = 30;
const SETTLED_AT = "2026-01-02T04:00:00.000Z";

/** Text JSON must escape: NUL, lone surrogates of both halves, a pair, quotes, a line separator. */
const ODD_TEXT = 'NUL \u0000 here, lone \ud800 and \udfff, pair 😀, "quoted" back\\slash \u2028 東京';
const ODD_DATA = {
  text: ODD_TEXT,
  nested: { list: [1, null, "\u0000", { deep: [true, false, -0.5, ODD_TEXT] }], empty: {}, none: [] },
  nothing: null,
};

function describeStep(step: WaitStep): string {
  const shown = (value: unknown) => {
    const json = JSON.stringify(value) ?? "undefined";
    return json.length > 200 ? `${json.slice(0, 200)}…` : json;
  };
  switch (step.op) {
    case "add":
      return `addWait(${shown({ ...step.wait, input: "…", value: "…" })})`;
    case "settle":
      return `settleWait(${shown(step.id)}, ${step.outcome.status})`;
    case "race":
      return `two stores settleWait(${shown(step.id)}) at once`;
    case "get":
      return `getWaits(${shown(step.filter)})`;
  }
}

export function waitCases({ define, open, required, options }: CaseContext): StoreConformanceCase[] {
  /** A store on the session with the waits group, or undefined when it has none (the cases pass). */
  const openWaits = async (sessionId: string): Promise<WithWaits | undefined> => {
    const store = await open(sessionId);
    return hasCapability(store, "waits", required) ? (store as WithWaits) : undefined;
  };

  return [
    define(
      "waits: add/get round-trip any JSON data (NUL, lone surrogates, nested, null) as its JSON form; adding an id again changes nothing; a second store sees them",
      async (session) => {
        const id = session("waits");
        const store = await openWaits(id);
        if (!store) return;
        assertEqual(await store.getWaits(), [], "getWaits() of a new session");
        // Built twice: what is added (mutated below) and what must read back.
        const waits = (): StoredWait[] => [
          storedWait("q1", { input: ODD_DATA, displayStrategy: "hide-on-complete" }),
          storedWait("s1", {
            kind: "step",
            position: 1,
            renderer: "charge_card",
            input: null,
            status: "resolved",
            value: `charged ${ODD_TEXT}`,
            settled_at: SETTLED_AT,
          }),
          storedWait("s2", {
            kind: "step",
            position: 2,
            renderer: "send_mail",
            input: null,
            status: "resolved",
            value: null,
            settled_at: SETTLED_AT,
          }),
          storedWait("q\u2028東😀", { position: 3, input: undefined }),
        ];
        const added = [
          ...waits(),
          {
            ...storedWait("q-json", {
              position: 4,
              input: { n: NaN, gone: undefined, when: new Date(0), list: [undefined, Infinity] },
            }),
            extra: "not kept",
          },
        ];
        const expected = [
          ...waits(),
          storedWait("q-json", {
            position: 4,
            input: { n: null, when: "1970-01-01T00:00:00.000Z", list: [null, null] },
          }),
        ];
        for (const wait of added) await store.addWait(wait);
        assertEqual(await store.getWaits(), expected, "getWaits() after five adds");
        const read = await store.getWaits();
        assert(
          read.length === 5 && "value" in read[2]! && read[2]!.value === null,
          "a value of null must read back as null, not absent",
        );
        assert(!("value" in read[0]!), "a wait stored without a value must read back without one");

        // A replay after a restart adds the same waits again: nothing changes, nothing moves.
        await store.addWait(storedWait("q1", { input: "replayed", position: 9 }));
        await store.addWait(storedWait("s1", { status: "pending", settled_at: null }));
        assertEqual(await store.getWaits(), expected, "getWaits() after adding stored ids again (must change nothing)");

        added[0]!.input = "mutated after add";
        read[1]!.value = "mutated after read";
        const other = await openWaits(id);
        assert(other, "a second store on the session must implement the waits group too");
        assertEqual(
          await other.getWaits(),
          expected,
          "getWaits() of a second store on the same session (mutating what was passed or read changes nothing)",
        );

        const settled = await other.settleWait("q1", { status: "resolved", value: ODD_DATA, settled_at: SETTLED_AT });
        const answered = { ...expected[0]!, status: "resolved" as const, value: ODD_DATA, settled_at: SETTLED_AT };
        assertEqual(settled, { won: true, wait: answered }, "settleWait() of a pending question");
        assertEqual(
          (await store.getWaits())[0],
          answered,
          "the first store's read after a second store settled the question",
        );
        await store.addWait(storedWait("q1"));
        assertEqual(
          (await store.getWaits())[0],
          answered,
          "a settled wait after adding its id again (a replay must not reopen it)",
        );
      },
    ),

    define(
      "waits: the first settle wins, also of two stores settling at once; later settles and unknown ids get won: false",
      async (session) => {
        const id = session("settle");
        const store = await openWaits(id);
        if (!store) return;
        const ids = ["p0", "p1", "p2", "p3", "p4"];
        for (const [position, waitId] of ids.entries()) await store.addWait(storedWait(waitId, { position }));
        await store.addWait(
          storedWait("done", { kind: "step", position: 5, status: "resolved", value: 1, settled_at: SETTLED_AT }),
        );

        const yes: WaitOutcome = { status: "resolved", value: "yes", settled_at: SETTLED_AT };
        const first = { ...storedWait("p0"), status: "resolved" as const, value: "yes", settled_at: SETTLED_AT };
        assertEqual(
          await store.settleWait("p0", yes),
          { won: true, wait: first },
          "the first settleWait() of a pending wait",
        );
        assertEqual(
          await store.settleWait("p0", { status: "rejected", value: "no", settled_at: "2026-01-03T00:00:00.000Z" }),
          { won: false, wait: first },
          "a second settleWait() (must lose and return the stored wait)",
        );
        const doneStep = storedWait("done", {
          kind: "step",
          position: 5,
          status: "resolved",
          value: 1,
          settled_at: SETTLED_AT,
        });
        assertEqual(
          await store.settleWait("done", { status: "cancelled", settled_at: SETTLED_AT }),
          { won: false, wait: doneStep },
          "settleWait() of a step stored resolved",
        );
        const unknown = await store.settleWait("never-added", yes);
        assert(
          unknown.won === false && unknown.wait === undefined,
          `settleWait() of an unknown id must return { won: false, wait: undefined }, got ${JSON.stringify(unknown)}`,
        );

        const other = (await openWaits(id))!;
        for (const waitId of ids.slice(1)) {
          const outcomes: WaitOutcome[] = ["a", "b", "c"].map((answer) => ({
            status: "resolved",
            value: `${waitId}:${answer}`,
            settled_at: SETTLED_AT,
          }));
          const results = await Promise.all([
            store.settleWait(waitId, outcomes[0]!),
            other.settleWait(waitId, outcomes[1]!),
            store.settleWait(waitId, outcomes[2]!),
          ]);
          const winners = results.filter((r) => r.won);
          assert(
            winners.length === 1,
            `three concurrent settleWait("${waitId}") calls from two stores: exactly one must win, ${winners.length} did`,
          );
          const stored = (await (await openWaits(id))!.getWaits({ toolCallId: "call_1" })).find((w) => w.id === waitId);
          assertEqual(stored, winners[0]!.wait, `the stored "${waitId}" after the race (must be the winner's)`);
          for (const [i, r] of results.entries())
            assertEqual(r.wait, stored, `settleWait("${waitId}") call ${i}'s wait (every caller sees the winner's)`);
        }
      },
    ),

    define("waits: getWaits filters by status and tool call, in the order the waits were added", async (session) => {
      const store = await openWaits(session("filters"));
      if (!store) return;
      const a0 = storedWait("a0", { toolCallId: "A" });
      const b0 = storedWait("b0", { toolCallId: "B" });
      const a1 = storedWait("a1", {
        toolCallId: "A",
        kind: "step",
        position: 1,
        input: null,
        status: "resolved",
        value: { ok: true },
        settled_at: SETTLED_AT,
      });
      const b1 = storedWait("b1", { toolCallId: "B", position: 1 });
      const a2 = storedWait("a2", { toolCallId: "A", position: 2 });
      // Added out of position order: reads keep the order of adding.
      const c1 = storedWait("c1", { toolCallId: "C", position: 1 });
      const c0 = storedWait("c0", { toolCallId: "C", position: 0 });
      // a0 is added at position -0, which every store keeps as 0 (SQL has no -0).
      for (const wait of [{ ...a0, position: -0 }, b0, a1, b1, a2, c1, c0]) await store.addWait(wait);
      await store.settleWait("b0", { status: "cancelled", settled_at: SETTLED_AT });
      const b0c = { ...b0, status: "cancelled" as const, settled_at: SETTLED_AT };
      const all = [a0, b0c, a1, b1, a2, c1, c0];
      assertEqual(await store.getWaits(), all, "getWaits()");
      assertEqual(await store.getWaits({}), all, "getWaits({})");
      assertEqual(
        await store.getWaits({ status: undefined, toolCallId: undefined }),
        all,
        "getWaits({ status: undefined, toolCallId: undefined })",
      );
      assertEqual(await store.getWaits({ toolCallId: "A" }), [a0, a1, a2], 'getWaits({ toolCallId: "A" })');
      assertEqual(
        await store.getWaits({ toolCallId: "C" }),
        [c1, c0],
        'getWaits({ toolCallId: "C" }) (order of adding, not position)',
      );
      assertEqual(await store.getWaits({ status: "pending" }), [a0, b1, a2, c1, c0], 'getWaits({ status: "pending" })');
      assertEqual(
        await store.getWaits({ status: "pending", toolCallId: "B" }),
        [b1],
        'getWaits({ status: "pending", toolCallId: "B" })',
      );
      assertEqual(await store.getWaits({ status: "cancelled" }), [b0c], 'getWaits({ status: "cancelled" })');
      assertEqual(await store.getWaits({ status: "rejected" }), [], 'getWaits({ status: "rejected" })');
      assertEqual(await store.getWaits({ toolCallId: "nope" }), [], 'getWaits({ toolCallId: "nope" })');
    }),

    define(
      "waits: sessions and sub-stores are isolated; the same wait id in two sessions are two waits",
      async (session) => {
        const a = await openWaits(session("iso-a"));
        const b = await openWaits(session("iso-b"));
        if (!a || !b) return;
        await a.addWait(storedWait("w1"));
        await a.addWait(storedWait("only-a", { position: 1 }));
        await b.addWait(storedWait("w1", { toolCallId: "call_b", renderer: "other" }));
        assertEqual(await a.getWaits(), [storedWait("w1"), storedWait("only-a", { position: 1 })], "session a's waits");
        const settled = await b.settleWait("w1", { status: "rejected", value: "b says no", settled_at: SETTLED_AT });
        assert(settled.won, "session b settling its own w1 must win");
        assertEqual(
          await b.settleWait("only-a", { status: "resolved", settled_at: SETTLED_AT }),
          { won: false, wait: undefined },
          "session b settling session a's wait",
        );
        assertEqual(
          await a.getWaits({ status: "pending" }),
          [storedWait("w1"), storedWait("only-a", { position: 1 })],
          "session a's waits after b settled its own w1 and tried a's",
        );
        assertEqual(await b.getWaits({ toolCallId: "call_1" }), [], "session b's waits of session a's call");
        if (!hasCapability(a, "subAgentStores", required)) return;
        const child = await a.createSubAgentStore!("planner", { durable: true });
        if (!hasCapability(child, "waits", required)) return;
        const c = child as WithWaits;
        assertEqual(await c.getWaits(), [], "a sub-store's waits (must not see the parent's)");
        await c.addWait(storedWait("w1", { toolCallId: "child_call" }));
        assertEqual(await c.getWaits(), [storedWait("w1", { toolCallId: "child_call" })], "the sub-store's own wait");
        assertEqual((await a.getWaits()).length, 2, "the parent's waits after its sub-store added one");
      },
    ),

    define(
      "waits: ids, fields, outcomes and filters no store can keep are refused with GLOVE_STORE_INVALID and change nothing",
      async (session) => {
        const store = await openWaits(session("invalid-waits"));
        if (!store) return;
        const kept = storedWait("p");
        await store.addWait(kept);
        const cyclic: Record<string, unknown> = {};
        cyclic["self"] = cyclic;
        const w = (over: Record<string, unknown>) => ({ ...storedWait("x"), ...over });
        const badWaits: Array<[string, unknown]> = [
          ["null", null],
          ["a string", "x"],
          ["an array", [storedWait("x")]],
          ["an id with NUL", w({ id: "x\u0000" })],
          ["an id with a lone surrogate", w({ id: "x\ud800" })],
          ["an id over 1024 UTF-8 bytes", w({ id: "é".repeat(513) })],
          ["id: 5", w({ id: 5 })],
          ['kind "prompt"', w({ kind: "prompt" })],
          ["a toolCallId with NUL", w({ toolCallId: "c\u0000" })],
          ["no toolCallId", w({ toolCallId: undefined })],
          ["a toolName over 1024 bytes", w({ toolName: "t".repeat(1025) })],
          ["a renderer with a lone surrogate", w({ renderer: "r\udc00" })],
          ["position -1", w({ position: -1 })],
          ["position 1.5", w({ position: 1.5 })],
          ['position "0"', w({ position: "0" })],
          ["position NaN", w({ position: NaN })],
          ["position 2^31", w({ position: 2 ** 31 })],
          ['status "done"', w({ status: "done" })],
          ["no status", w({ status: undefined })],
          ['displayStrategy "sometimes"', w({ displayStrategy: "sometimes" })],
          ["created_at: 5", w({ created_at: 5 })],
          ["created_at with NUL", w({ created_at: "2026\u0000" })],
          ["settled_at: 7", w({ settled_at: 7 })],
          ["input: a BigInt", w({ input: BigInt(1) })],
          ["input with a cycle", w({ input: cyclic })],
          ["value: a BigInt", w({ value: { big: BigInt(2) } })],
        ];
        for (const [what, bad] of badWaits)
          await assertRefused(() => store.addWait(bad as StoredWait), `addWait(${what})`);
        const badOutcomes: Array<[string, string, unknown]> = [
          ["an outcome of status pending", "p", { status: "pending", settled_at: SETTLED_AT }],
          ['an outcome of status "done"', "p", { status: "done", settled_at: SETTLED_AT }],
          ["an outcome without settled_at", "p", { status: "resolved" }],
          ["an outcome whose settled_at holds NUL", "p", { status: "resolved", settled_at: "\u0000" }],
          ["an outcome whose value is a BigInt", "p", { status: "resolved", value: BigInt(3), settled_at: SETTLED_AT }],
          ["a null outcome", "p", null],
          ["an id with NUL", "p\u0000", { status: "resolved", settled_at: SETTLED_AT }],
          ["an id over 1024 UTF-8 bytes", "p".repeat(1025), { status: "resolved", settled_at: SETTLED_AT }],
          ["id: 5", 5 as unknown as string, { status: "resolved", settled_at: SETTLED_AT }],
        ];
        for (const [what, id, outcome] of badOutcomes)
          await assertRefused(() => store.settleWait(id, outcome as WaitOutcome), `settleWait() with ${what}`);
        const badFilters: Array<[string, unknown]> = [
          ['status "open"', { status: "open" }],
          ["a toolCallId with NUL", { toolCallId: "c\u0000" }],
          ["toolCallId: 5", { toolCallId: 5 }],
          ["a string", "pending"],
          ["null", null],
        ];
        for (const [what, filter] of badFilters)
          await assertRefused(() => store.getWaits(filter as never), `getWaits(${what})`);
        assertEqual(
          await store.getWaits(),
          [kept],
          "getWaits() after the refused calls (nothing added, the pending wait still pending)",
        );
      },
    ),

    define(
      "random waits (seeded): adds, settles, races of two stores and filtered reads agree with a model of first-add-kept, first-settle-wins",
      async (session) => {
        const seed = options.propertySeed ?? Math.floor(Math.random() * 2 ** 31);
        const generator = new WaitGenerator(seed);
        try {
          for (let round = 0; round < (options.propertyRuns ?? 4); round++) {
            const id = session(`random-waits-${round}`);
            const stores = [await openWaits(id), await openWaits(id)];
            if (!stores[0] || !stores[1]) return;
            const [one, two] = stores as [WithWaits, WithWaits];
            const model = new WaitModel();
            for (let i = 0; i < STEPS; i++) {
              const step = generator.step(model);
              const what = `round ${round}, step ${i}: ${describeStep(step)}`;
              const store = i % 3 === 2 ? two : one;
              if (step.op === "add") {
                await store.addWait(step.wait);
                model.add(step.wait);
              } else if (step.op === "settle") {
                assertEqual(await store.settleWait(step.id, step.outcome), model.settle(step.id, step.outcome), what);
              } else if (step.op === "race") {
                const results = await Promise.all([
                  one.settleWait(step.id, step.outcomes[0]),
                  two.settleWait(step.id, step.outcomes[1]),
                ]);
                const winner = results.findIndex((r) => r.won);
                const expected = model.settle(step.id, step.outcomes[winner === -1 ? 0 : winner]!);
                assert(
                  results.filter((r) => r.won).length === (expected.won ? 1 : 0),
                  `${what}: ${expected.won ? "exactly one" : "neither"} must win, got ${JSON.stringify(results.map((r) => r.won))}`,
                );
                for (const [n, r] of results.entries())
                  assertEqual(r.wait, expected.wait, `${what}, store ${n}'s wait`);
              } else {
                assertEqual(await store.getWaits(step.filter), model.get(step.filter), what);
              }
              assertEqual(await store.getWaits(), model.get(), `getWaits() after ${what}`);
            }
          }
        } catch (error) {
          if (error instanceof StoreConformanceError) {
            throw new StoreConformanceError(
              `${error.message} (seed ${seed}; pass propertySeed: ${seed} to storeConformanceCases to repeat)`,
            );
          }
          throw error;
        }
      },
    ),
  ];
}
