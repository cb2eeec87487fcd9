import fc from "fast-check";
import { expect } from "vitest";
import type { StoreAdapter, StoredWait } from "glove-core";
import { expectStoreHistoryValid } from "../../support/valid-history.js";
import type { Crash } from "./crash-store.js";
import {
  ANSWERS,
  finalResult,
  runWithCrashes,
  type NewConversation,
  type ScenarioOutcome,
  type UiTiming,
} from "./order-scenario.js";

/**
 * What must hold after any crashes: the conversation is valid and finished, no question was
 * settled twice, and the tool's effects happened once — once more for each crash in a window no
 * store can close (between a step's work and its record; between the tool's last line and its
 * stored result), never less once the tool stored anything.
 */
export async function expectExactlyOnce(outcome: ScenarioOutcome, crashes: readonly Crash[]): Promise<void> {
  const context = JSON.stringify({ crashes, calls: outcome.calls });
  const { store, world } = outcome;
  const waitsOf = (filter: Parameters<NonNullable<StoreAdapter["getWaits"]>>[0]) => store.getWaits!(filter);
  await expectStoreHistoryValid(store);
  expect((await store.getMessages()).at(-1), context).toMatchObject({
    sender: "agent",
    text: expect.stringMatching(/^Done: /),
  });
  const result = await finalResult(store);
  expect(result, context).toBeDefined();
  // Nothing waits any more, and no question was settled twice (first answer wins).
  expect(await waitsOf({ status: "pending" }), context).toEqual([]);
  expect(
    [...outcome.wins.values()].every((n) => n === 1),
    context,
  ).toBe(true);

  const waits = await waitsOf({ toolCallId: result!.call_id });
  if (waits.length === 0) {
    // The process died before the tool stored anything: the call ends interrupted, as without
    // durable questions; it had not reached its step yet (that comes after the first question).
    expect(result!.result.status, context).toBe("aborted");
    expect(world, context).toEqual({ charged: 0, shipped: 0 });
    return;
  }
  // Once the tool stored a wait, the call is never lost: it finishes with the person's answers.
  expect(result!.result, context).toMatchObject({ status: "success", data: `shirt M blue receipt-${world.charged}` });
  const questions = waits.filter((w: StoredWait) => w.kind === "question");
  expect(
    questions.map((w) => [w.status, w.value, outcome.wins.get(w.id)]),
    context,
  ).toEqual([
    ["resolved", ANSWERS.size, 1],
    ["resolved", ANSWERS.colour, 1],
  ]);
  expect(
    waits.filter((w) => w.kind === "step"),
    context,
  ).toHaveLength(1);
  expect(world, context).toEqual({ charged: 1 + outcome.stepWindows, shipped: 1 + outcome.shipWindows });
}

/** Kills the first process at each of its store calls in turn (the call landing, then not). */
export async function checkEveryCrashPoint(ui: UiTiming, conversation?: NewConversation): Promise<void> {
  const clean = await runWithCrashes([], ui, conversation);
  await expectExactlyOnce(clean, []);
  const points = clean.calls[0]!.length;
  // The turn makes many store calls: questions, step, answers, results, the model's turns.
  expect(clean.calls[0]).toEqual(expect.arrayContaining(["addWait", "settleWait", "getWaits", "appendMessages"]));
  let windows = 0;
  for (let at = 0; at < points; at++) {
    for (const applied of [false, true]) {
      const crashes = [{ at, applied }];
      const outcome = await runWithCrashes(crashes, ui, conversation);
      await expectExactlyOnce(outcome, crashes);
      windows += outcome.stepWindows + outcome.shipWindows;
    }
  }
  // The windows exist (the property covers them), and they are the exception.
  expect(windows).toBeGreaterThan(0);
  expect(windows).toBeLessThan(points);
}

/** Up to three crashes in a row: the processes that take over may die too (fast-check). */
export async function checkCrashSequences(runs: number, conversation?: NewConversation): Promise<void> {
  const crash = fc.record({ at: fc.nat(45), applied: fc.boolean() });
  await fc.assert(
    fc.asyncProperty(
      fc.array(crash, { minLength: 1, maxLength: 3 }),
      fc.constantFrom<UiTiming>("sync", "async"),
      async (crashes, ui) => {
        await expectExactlyOnce(await runWithCrashes(crashes, ui, conversation), crashes);
      },
    ),
    { numRuns: runs },
  );
}
