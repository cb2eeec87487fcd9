/**
 * Cases for `recordModelCall` (docs/decisions/0037): one model call's messages, tokens and turn in
 * one write, all or nothing — the same result as `appendMessages`, `addTokens` and
 * `incrementTurn`, with the same refusals, and a refusal of any part writes nothing.
 */
import type { Message, ModelCallRecord, StoreAdapter, TokenConsumptionCounter } from "../../types/index.js";
import { assert, assertEqual } from "./assertions.js";
import { hasCapability } from "./capabilities.js";
import { plainMessages } from "./fixtures.js";
import type { CaseContext } from "./parity-cases.js";
import { assertMessages, assertRefused } from "./store-checks.js";
import type { StoreConformanceCase } from "./types.js";

type WithModelCall = StoreAdapter & { recordModelCall(call: ModelCallRecord): Promise<void> };

const call = (messages: Message[], tokens_in: number, tokens_out: number): ModelCallRecord => ({
  messages,
  tokens: { tokens_in, tokens_out },
});

/** Concurrent model calls of one store (not awaited one by one). */
const CONCURRENT = 16;

export function modelCallCases({ define, open, required, options }: CaseContext): StoreConformanceCase[] {
  const openWith = async (sessionId: string): Promise<WithModelCall | undefined> => {
    const store = await open(sessionId);
    return hasCapability(store, "recordModelCall", required) ? (store as WithModelCall) : undefined;
  };
  /** Messages, tokens and turns as `store` and a second store on the session read them. */
  const assertState = async (
    store: StoreAdapter,
    id: string,
    messages: Message[],
    tokens: number,
    turns: number,
    when: string,
  ) => {
    for (const [reader, who] of [
      [store, ""],
      [await open(id), " (a second store)"],
    ] as const) {
      await assertMessages(reader, messages, `${when}${who}`, required);
      assertEqual(await reader.getTokenCount(), tokens, `getTokenCount() ${when}${who}`);
      assertEqual(await reader.getTurnCount(), turns, `getTurnCount() ${when}${who}`);
    }
  };

  return [
    define(
      "recordModelCall: messages, tokens and one turn at once; a refused token count or message writes nothing",
      async (session) => {
        const id = session("model-call");
        const store = await openWith(id);
        if (!store) return;
        const first = plainMessages("call1", 2);
        await store.recordModelCall(call(first, 10, 2));
        await assertState(store, id, first, 12, 1, "after one recordModelCall");

        const next = plainMessages("call2", 1);
        const bad: Array<[string, unknown]> = [
          ['tokens_in "12"', { tokens_in: "12", tokens_out: 0 }],
          ["tokens_out NaN", { tokens_in: 0, tokens_out: NaN }],
          ["tokens_in 1.5", { tokens_in: 1.5, tokens_out: 0 }],
          ["tokens_out -1", { tokens_in: 0, tokens_out: -1 }],
          ["tokens null", null],
          ["tokens undefined", undefined],
          ["a sum past 2^53 - 1", { tokens_in: Number.MAX_SAFE_INTEGER, tokens_out: 1 }],
        ];
        for (const [what, tokens] of bad) {
          await assertRefused(
            () => store.recordModelCall({ messages: next, tokens: tokens as TokenConsumptionCounter }),
            `recordModelCall with ${what}`,
          );
        }
        await assertRefused(() => store.recordModelCall(undefined as never), "recordModelCall(undefined)");
        const refusedMessage = [{ sender: "agent", text: "s", is_compaction: 1 }] as unknown as Message[];
        await assertRefused(
          () => store.recordModelCall({ messages: refusedMessage, tokens: { tokens_in: 5, tokens_out: 5 } }),
          "recordModelCall of a message no store can keep",
        );
        await assertState(store, id, first, 12, 1, "after refused model calls (must write nothing)");

        // A total that would pass 2^53 - 1 is refused whole: no message, no turn.
        await store.addTokens({ tokens_in: Number.MAX_SAFE_INTEGER - 20, tokens_out: 0 });
        await assertRefused(
          () => store.recordModelCall(call(next, 5, 5)),
          "recordModelCall taking the token count past 2^53 - 1",
        );
        await assertState(store, id, first, Number.MAX_SAFE_INTEGER - 8, 1, "after a model call refused for its total");
        await store.resetCounters();

        // No messages (an empty answer) still counts its tokens and turn; a compaction summary moves the view.
        await store.recordModelCall(call([], 1, 1));
        const summary: Message = { sender: "agent", text: "Summary so far.", is_compaction: true };
        await store.recordModelCall(call([summary, ...next], 3, 4));
        await assertState(store, id, [...first, summary, ...next], 9, 2, "after an empty model call and a compaction");
      },
    ),

    define(
      "recordModelCall: the same history and counters as appendMessages, addTokens and incrementTurn, repair included",
      async (session) => {
        const a = await openWith(session("model-call-a"));
        if (!a) return;
        const b = await open(session("model-call-b"));
        const turns: Array<[Message[], number, number]> = [
          [
            [
              { sender: "user", text: "go" },
              { sender: "agent", text: "", tool_calls: [{ tool_name: "t", id: "c1", input_args: {} }] },
            ],
            7,
            3,
          ],
          // The call above is never answered: a store that repairs records an aborted result first.
          [[{ sender: "agent", text: "moved on" }], 2, 1],
          [plainMessages("plain", 3), 0, 0],
        ];
        for (const [messages, tokensIn, tokensOut] of turns) {
          await a.recordModelCall(call(structuredClone(messages), tokensIn, tokensOut));
          await b.appendMessages(structuredClone(messages));
          await b.addTokens({ tokens_in: tokensIn, tokens_out: tokensOut });
          await b.incrementTurn();
        }
        const expected = await b.getMessages();
        if (options.repairsInterruptedToolCalls !== false) {
          assert(
            expected.some((m) => m.tool_results?.[0]?.result.status === "aborted"),
            "appendMessages after an unanswered call must record an aborted result",
          );
        }
        await assertMessages(a, expected, "after model calls (as appendMessages stored them)", required);
        assertEqual(
          await a.getTokenCount(),
          await b.getTokenCount(),
          "getTokenCount() after model calls (as addTokens counted)",
        );
        assertEqual(await a.getTurnCount(), turns.length, "getTurnCount() after model calls");
      },
    ),

    define(
      "recordModelCall: concurrent calls and appends keep call order, and every count adds up",
      async (session) => {
        const id = session("model-call-race");
        const store = await openWith(id);
        if (!store) return;
        const calls = Array.from({ length: CONCURRENT }, (_, i) => plainMessages(`c${i}`, (i % 2) + 1));
        await Promise.all(
          calls.map((messages, i) =>
            i % 4 === 3 ? store.appendMessages(messages) : store.recordModelCall(call(messages, i, 1)),
          ),
        );
        const modelCalls = calls.filter((_, i) => i % 4 !== 3).length;
        const tokens = calls.reduce((sum, _, i) => (i % 4 === 3 ? sum : sum + i + 1), 0);
        await assertState(store, id, calls.flat(), tokens, modelCalls, `after ${CONCURRENT} calls at once`);
      },
    ),
  ];
}
