/**
 * Cases for interrupted turns (docs/decisions/0006 and 0020): an append that moves on from
 * unanswered tool calls first stores `aborted` results for them, and results for calls already
 * answered are refused with GLOVE_STORE_CONFLICT — in MemoryStore exactly as in the SQL stores,
 * so message counts and compaction boundaries agree. A store that leaves repair to the agent
 * (`repairsInterruptedToolCalls: false`) must store every batch as given instead.
 */
import { INTERRUPTED_TOOL_MESSAGE } from "../../stores/message-integrity.js";
import type { Message, ToolResult } from "../../types/index.js";
import { StoreConformanceError } from "./assertions.js";
import type { CaseContext } from "./parity-cases.js";
import { TurnGenerator, TurnModel } from "./random-turns.js";
import { assertMessages, assertRefused } from "./store-checks.js";
import type { StoreConformanceCase } from "./types.js";

const CONFLICT = "GLOVE_STORE_CONFLICT";
/** Batches per random session: with at most four messages each, a session stays within the stores' 64-message turn window. */
const STEPS = 14;

function aborted(tool_name: string, call_id?: string): ToolResult {
  return {
    tool_name,
    ...(call_id === undefined ? {} : { call_id }),
    result: { status: "aborted", data: null, message: INTERRUPTED_TOOL_MESSAGE },
  };
}

function calls(...ids: Array<[string, string?]>): Message {
  return {
    sender: "agent",
    text: "",
    tool_calls: ids.map(([tool_name, id]) => ({ tool_name, ...(id === undefined ? {} : { id }), input_args: {} })),
  };
}

function results(...ids: string[]): Message {
  return {
    sender: "user",
    text: "",
    tool_results: ids.map((call_id) => ({ tool_name: "t", call_id, result: { status: "success", data: 1 } })),
  };
}

/** A batch as shown in a failure: who sent what, with call and result ids. */
function describeBatch(batch: readonly Message[]): string {
  if (batch.length === 0) return "[]";
  const one = (m: Message) =>
    m.tool_calls?.length
      ? `${m.sender} calls ${JSON.stringify(m.tool_calls.map((c) => c.id ?? `(${c.tool_name}, no id)`))}`
      : m.tool_results?.length
        ? `${m.sender} results ${JSON.stringify(m.tool_results.map((r) => r.call_id ?? `(${r.tool_name}, no id)`))}`
        : `${m.sender}${m.is_compaction ? " summary" : ""} ${JSON.stringify(m.text)}`;
  return `[${batch.map(one).join(", ")}]`;
}

export function repairCases({ define, open, required, options }: CaseContext): StoreConformanceCase[] {
  const repairs = options.repairsInterruptedToolCalls !== false;

  return [
    define(
      "an append after unanswered tool calls first stores aborted results for every call of the turn; late results are refused (GLOVE_STORE_CONFLICT)",
      async (session) => {
        const id = session("repair");
        const store = await open(id);
        // One model turn stored as two agent messages, as some providers answer.
        const turn: Message[] = [
          { sender: "user", text: "run it" },
          calls(["slow", "c1"], ["other"]),
          calls(["second", "c2"]),
        ];
        await store.appendMessages(turn);
        await assertMessages(store, turn, "before the conversation moves on (reads never repair)", required);
        // Another store on the session (another process) moves the conversation on.
        await (await open(id)).appendMessages([{ sender: "user", text: "are you there?" }]);
        const repair: Message = {
          sender: "user",
          text: "",
          tool_results: [aborted("slow", "c1"), aborted("other"), aborted("second", "c2")],
        };
        const expected = [...turn, ...(repairs ? [repair] : []), { sender: "user", text: "are you there?" }];
        await assertMessages(
          store,
          expected,
          repairs
            ? "(one aborted result per unanswered call, in call order, before the new message)"
            : "(stored as given)",
          required,
        );

        const late = [results("c1")];
        if (repairs)
          await assertRefused(
            () => store.appendMessages(late),
            "a result for a call already answered as aborted",
            CONFLICT,
          );
        else await store.appendMessages(late).then(() => expected.push(...late));
        await assertMessages(store, expected, "after a late result", required);

        // Results right after their calls, and a batch that starts with them, are never repaired.
        await store.appendMessages([calls(["t", "c3"])]);
        await store.appendMessages([results("c3"), { sender: "agent", text: "done" }]);
        expected.push(calls(["t", "c3"]), results("c3"), { sender: "agent", text: "done" });
        // The repair lands before a compaction summary, which stays the boundary.
        await store.appendMessages([calls(["t", "c4"])]);
        const summary: Message = { sender: "user", text: "summary", is_compaction: true };
        await store.appendMessages([summary, { sender: "user", text: "after" }]);
        expected.push(
          calls(["t", "c4"]),
          ...(repairs ? [{ sender: "user" as const, text: "", tool_results: [aborted("t", "c4")] }] : []),
          summary,
          { sender: "user", text: "after" },
        );
        await assertMessages(store, expected, "after calls answered in time and a compaction", required);
        await assertMessages(await open(id), expected, "of a second store on the session", required);
      },
    ),

    define(
      "random tool-call turns (seeded): aborted results exactly where a turn is moved on from, late results refused, counts and compaction boundaries agree",
      async (session) => {
        const seed = options.propertySeed ?? Math.floor(Math.random() * 2 ** 31);
        const again = `(seed ${seed}; pass propertySeed: ${seed} to storeConformanceCases to repeat)`;
        const generator = new TurnGenerator(seed);
        try {
          for (let round = 0; round < (options.propertyRuns ?? 4); round++) {
            const id = session(`turns-${round}`);
            const store = await open(id);
            const model = new TurnModel(repairs);
            for (let step = 0; step < STEPS; step++) {
              const batch = generator.batch(model);
              const what = `round ${round}, step ${step}: appendMessages(${describeBatch(batch)})`;
              const outcome = model.append(JSON.parse(JSON.stringify(batch)) as Message[]);
              if (outcome === CONFLICT) {
                await assertRefused(
                  () => store.appendMessages(batch),
                  `${what}, with results for calls already answered,`,
                  CONFLICT,
                );
              } else {
                await store.appendMessages(batch).catch((error: unknown) => {
                  throw new StoreConformanceError(
                    `${what} must be stored, but was refused: ${error instanceof Error ? error.message : String(error)}`,
                  );
                });
              }
              await assertMessages(store, model.messages, `after ${what}`, required);
            }
            await assertMessages(await open(id), model.messages, `of a second store after round ${round}`, required);
          }
        } catch (error) {
          if (error instanceof StoreConformanceError) throw new StoreConformanceError(`${error.message} ${again}`);
          throw error;
        }
      },
    ),
  ];
}
