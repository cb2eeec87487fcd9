import { expect } from "vitest";
import { GloveError, type StoreAdapter } from "glove-core";

/**
 * Two store instances on one conversation, as two processes would hold: `a` stores a call and
 * runs the tool, `b` moves the conversation on (the store answers the call as interrupted), then
 * `a`'s result arrives. It must be refused, never stored as a second result.
 */
export async function expectLateResultRefused(a: StoreAdapter, b: StoreAdapter): Promise<void> {
  await a.appendMessages([
    { sender: "user", text: "run it" },
    { sender: "agent", text: "", tool_calls: [{ tool_name: "slow", id: "c1", input_args: {} }] },
  ]);
  await b.appendMessages([{ sender: "user", text: "are you there?" }]);
  const late = await a
    .appendMessages([
      {
        sender: "user",
        text: "",
        tool_results: [{ tool_name: "slow", call_id: "c1", result: { status: "success", data: "done" } }],
      },
    ])
    .catch((error: unknown) => error);
  expect(GloveError.isInstance(late) && late.code).toBe("GLOVE_STORE_CONFLICT");
  const results = (await b.getMessages()).flatMap((m) => m.tool_results ?? []);
  expect(results.map((r) => [r.call_id, r.result.status])).toEqual([["c1", "aborted"]]);
  // The loop's own results, right after its calls, are still accepted.
  await b.appendMessages([{ sender: "agent", text: "", tool_calls: [{ tool_name: "t", id: "c2", input_args: {} }] }]);
  await b.appendMessages([
    {
      sender: "user",
      text: "",
      tool_results: [{ tool_name: "t", call_id: "c2", result: { status: "success", data: 1 } }],
    },
  ]);
  expect((await b.getMessages()).flatMap((m) => m.tool_results ?? []).map((r) => r.call_id)).toEqual(["c1", "c2"]);
}
