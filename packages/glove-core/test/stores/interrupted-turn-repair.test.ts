import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Displaymanager, Glove, MemoryStore, repairForInterruptedTools, type Message } from "glove-core";
import { ScriptedModel } from "glove-core/testing";

/** Every call in the history has exactly one result, matched by id. */
function expectEveryCallAnswered(messages: readonly Message[]): void {
  const calls = messages.flatMap((m) => m.tool_calls ?? []).map((c) => c.id);
  const results = messages.flatMap((m) => m.tool_results ?? []).map((r) => r.call_id);
  expect([...results].sort()).toEqual([...calls].sort());
}

/** A turn as a model may store it: several agent messages with calls, results for some of them. */
const turn = (prefix: string) =>
  fc
    .record({
      agentMessages: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 4 }),
      answered: fc.boolean(),
    })
    .map(({ agentMessages, answered }) => {
      const messages: Message[] = [{ sender: "user", text: `${prefix} question` }];
      const calls: string[] = [];
      agentMessages.forEach((count, i) => {
        const ids = Array.from({ length: count }, (_, j) => `${prefix}-${i}-${j}`);
        calls.push(...ids);
        messages.push({
          sender: "agent",
          text: "",
          tool_calls: ids.map((id) => ({ tool_name: "t", id, input_args: {} })),
        });
      });
      if (answered && calls.length) {
        messages.push({
          sender: "user",
          text: "",
          tool_results: calls.map((id) => ({ tool_name: "t", call_id: id, result: { status: "success", data: 1 } })),
        });
      }
      return messages;
    });

describe("repair of an interrupted turn", () => {
  it("property: after the repair, every call since the last user turn has exactly one result", () => {
    fc.assert(
      fc.property(fc.array(turn("a"), { maxLength: 3 }), turn("last"), (earlier, last) => {
        // Earlier turns were completed (repaired) before the next user message; only the last may be cut.
        const history: Message[] = [];
        for (const t of earlier) {
          history.push(...t);
          const fix = repairForInterruptedTools(history, [{ sender: "user", text: "next" }]);
          if (fix) history.push(fix);
        }
        history.push(...last);
        const repair = repairForInterruptedTools(history, [{ sender: "user", text: "next" }]);
        expectEveryCallAnswered(repair ? [...history, repair] : history);
        if (repair) expect(repair.tool_results!.every((r) => r.result.status === "aborted")).toBe(true);
      }),
    );
  });

  it("never repairs while the loop is storing the results itself", () => {
    const history: Message[] = [
      { sender: "user", text: "hi" },
      { sender: "agent", text: "", tool_calls: [{ tool_name: "t", id: "c1", input_args: {} }] },
    ];
    const results: Message = {
      sender: "user",
      text: "",
      tool_results: [{ tool_name: "t", call_id: "c1", result: { status: "success", data: 1 } }],
    };
    expect(repairForInterruptedTools(history, [results])).toBeUndefined();
  });

  it("the agent answers calls of a model turn stored as several messages before the next request", async () => {
    const store = new MemoryStore("crashed");
    await store.appendMessages([
      { sender: "user", text: "do two things" },
      { sender: "agent", text: "", tool_calls: [{ tool_name: "first", id: "c1", input_args: {} }] },
      { sender: "agent", text: "", tool_calls: [{ tool_name: "second", id: "c2", input_args: {} }] },
    ]);
    const model = new ScriptedModel([{ text: "ok" }]);
    const glove = new Glove({
      store,
      model,
      displayManager: new Displaymanager(),
      systemPrompt: "",
      compaction_config: { compaction_instructions: "" },
    }).build();
    await glove.processRequest("are you there?");
    expectEveryCallAnswered(await store.getMessages());
    expectEveryCallAnswered(model.requests[0]!.messages);
  });
});
