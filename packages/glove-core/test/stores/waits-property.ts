/**
 * Property test (fast-check) of durable questions: random sequences of addWait, settleWait (one
 * store, or two stores on the session at once) and getWaits, with valid and invalid arguments, on
 * a store, checked after every operation against the conformance suite's `WaitModel`. Invalid
 * arguments are built from tagged pieces (an id with NUL, a position of -1, a "pending" outcome…),
 * so the oracle knows they must be refused with GLOVE_STORE_INVALID without the stores' checks.
 * Used by the MemoryStore, SQLite and PostgreSQL test suites.
 */
import fc from "fast-check";
import { expect } from "vitest";
import { GloveError, type StoreAdapter, type StoredWait, type WaitFilter, type WaitOutcome } from "glove-core";
import { WaitModel } from "../../src/testing/store-conformance/random-waits.js";

type WaitStore = StoreAdapter & Required<Pick<StoreAdapter, "addWait" | "settleWait" | "getWaits">>;
/** A value and whether every store must accept it. */
type Tagged<T> = { value: T; ok: boolean };

const good = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<Tagged<T>> => arb.map((value) => ({ value, ok: true }));
const bad = <T>(...values: T[]): fc.Arbitrary<Tagged<T>> =>
  fc.constantFrom(...values).map((value) => ({ value, ok: false }));
const tagged = <T>(valid: fc.Arbitrary<T>, ...invalid: T[]) =>
  fc.oneof({ weight: 9, arbitrary: good(valid) }, { weight: 1, arbitrary: bad(...invalid) });

/** Strings of any UTF-16 code units: NUL, lone surrogates and pairs included (data keeps them). */
const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom("a", "é", "😀", "\u0000", "\ud800", "\udfff", '"', "\\", "\u2028"),
    fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  ),
  maxLength: 8,
});
const data = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 2, arbitrary: text },
  { weight: 1, arbitrary: fc.array(text, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);
const id = tagged(fc.constantFrom("w0", "w1", "w2", "w3", "w 東😀"), "w\u0000", "w\ud800", "é".repeat(513));
const callId = fc.constantFrom("call_1", "call_2");
const settled = fc.constantFrom<WaitOutcome["status"]>("resolved", "rejected", "cancelled");
const time = fc.integer({ min: 0, max: 10 ** 12 }).map((ms) => new Date(ms).toISOString());

const wait = fc.record({
  id,
  step: fc.boolean(),
  toolCallId: tagged(callId, "c\u0000"),
  position: tagged(fc.nat({ max: 9 }), -1, 1.5, 2 ** 31),
  renderer: tagged(fc.constantFrom("confirm", "charge"), "r\udc00"),
  input: data,
  value: data,
  displayStrategy: fc.constantFrom(undefined, "stay", "hide-on-new"),
  /** Valid: pending (questions) or resolved (steps), chosen by `step`; invalid: "done". */
  status: tagged(fc.constant<string | undefined>(undefined), "done"),
  created_at: time,
});
const outcome = fc.record({ status: tagged<string>(settled, "pending", "done"), value: data, settled_at: time });
const filter = fc.option(
  fc.record({
    status: fc.constantFrom(undefined, "pending", "resolved", "cancelled"),
    toolCallId: tagged(fc.constantFrom(undefined, "call_1", "call_2"), "c\u0000"),
  }),
  { nil: undefined },
);

const op = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant("add" as const), wait }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("settle" as const), id, outcome, second: fc.boolean() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("race" as const),
      id: id.filter((t) => t.ok),
      outcomes: fc.tuple(outcome, outcome).filter(([a, b]) => a.status.ok && b.status.ok),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("get" as const), filter, second: fc.boolean() }) },
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;
type GeneratedWait = Extract<Op, { op: "add" }>["wait"];
type GeneratedOutcome = Extract<Op, { op: "settle" }>["outcome"];

function toWait(w: GeneratedWait): { wait: StoredWait; ok: boolean } {
  const ok = w.id.ok && w.toolCallId.ok && w.position.ok && w.renderer.ok && w.status.ok;
  const status = w.status.ok ? (w.step ? "resolved" : "pending") : w.status.value;
  const stored = {
    id: w.id.value,
    kind: w.step ? "step" : "question",
    toolCallId: w.toolCallId.value,
    toolName: "tool",
    position: w.position.value,
    renderer: w.renderer.value,
    input: w.step ? null : w.input,
    status,
    created_at: w.created_at,
    settled_at: w.step ? w.created_at : null,
    ...(w.displayStrategy === undefined ? {} : { displayStrategy: w.displayStrategy }),
    ...(w.step && w.value !== undefined ? { value: w.value } : {}),
  } as StoredWait;
  return { wait: stored, ok };
}

function toOutcome(o: GeneratedOutcome): WaitOutcome {
  return {
    status: o.status.value as WaitOutcome["status"],
    ...(o.value === undefined ? {} : { value: o.value }),
    settled_at: o.settled_at,
  };
}

/** The call must be refused with GLOVE_STORE_INVALID (a synchronous throw counts). */
async function refused(call: () => Promise<unknown>): Promise<void> {
  const error = await Promise.resolve()
    .then(call)
    .then(
      () => new Error("accepted"),
      (e: unknown) => e,
    );
  expect(GloveError.isInstance(error) ? error.code : String(error)).toBe("GLOVE_STORE_INVALID");
}

/** Runs `numRuns` random sequences; `open(sessionId)` gives a store on the session (another object when it can). */
export async function checkWaitsAgainstModel(
  open: (sessionId: string) => Promise<StoreAdapter>,
  numRuns: number,
): Promise<void> {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
      const sessionId = `waits-${process.pid}-${Date.now().toString(36)}-${run++}`;
      const one = (await open(sessionId)) as WaitStore;
      const two = (await open(sessionId)) as WaitStore;
      const model = new WaitModel();
      for (const [i, o] of ops.entries()) {
        const when = `operation ${i} (${o.op})`;
        if (o.op === "add") {
          const { wait: w, ok } = toWait(o.wait);
          if (!ok) await refused(() => one.addWait(w));
          else {
            await one.addWait(w);
            model.add(w);
          }
        } else if (o.op === "settle") {
          const store = o.second ? two : one;
          if (!o.id.ok || !o.outcome.status.ok) await refused(() => store.settleWait(o.id.value, toOutcome(o.outcome)));
          else
            expect(await store.settleWait(o.id.value, toOutcome(o.outcome)), when).toStrictEqual(
              model.settle(o.id.value, toOutcome(o.outcome)),
            );
        } else if (o.op === "race") {
          const outcomes = o.outcomes.map(toOutcome);
          const results = await Promise.all([
            one.settleWait(o.id.value, outcomes[0]!),
            two.settleWait(o.id.value, outcomes[1]!),
          ]);
          const winner = results.findIndex((r) => r.won);
          const expected = model.settle(o.id.value, outcomes[Math.max(winner, 0)]!);
          expect(results.map((r) => r.won).filter(Boolean).length, `${when}: winners`).toBe(expected.won ? 1 : 0);
          for (const r of results) expect(r.wait, `${when}: every caller's wait`).toStrictEqual(expected.wait);
        } else {
          const f: WaitFilter | undefined = o.filter && {
            status: o.filter.status,
            toolCallId: o.filter.toolCallId.value,
          };
          const store = o.second ? two : one;
          if (o.filter && !o.filter.toolCallId.ok) await refused(() => store.getWaits(f));
          else expect(await store.getWaits(f), when).toStrictEqual(model.get(f));
        }
        expect(await two.getWaits(), `getWaits() of the second store after ${when}`).toStrictEqual(model.get());
      }
    }),
    { numRuns },
  );
}
