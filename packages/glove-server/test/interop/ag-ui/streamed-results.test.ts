import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AgUiMessage } from "../../../src/interop/ag-ui/events.js";
import { withStreamedResults } from "../../../src/interop/ag-ui/messages.js";

type ToolMessage = Extract<AgUiMessage, { role: "tool" }>;
const tool = (toolCallId: string, id = `streamed-${toolCallId}`): ToolMessage => ({
  id,
  role: "tool",
  toolCallId,
  content: `result of ${toolCallId}`,
});
const call = (id: string) => ({ id, type: "function" as const, function: { name: "t", arguments: "{}" } });

// A run that stops on a question closes with the stored history; a parallel call's result it
// already streamed is not stored yet (results are stored together) and must not vanish from it.
describe("closing snapshot of a run stopped on a question", () => {
  it("keeps a streamed result the store does not hold yet, right after its call's message and the results there", () => {
    const history: AgUiMessage[] = [
      { id: "u1", role: "user", content: "Delete /tmp/c and show a receipt" },
      { id: "a1", role: "assistant", toolCalls: [call("del"), call("card"), call("note")] },
      tool("note", "stored-note"),
    ];
    const out = withStreamedResults(
      history,
      new Map([
        ["card", tool("card")],
        ["note", tool("note")],
      ]),
    );
    expect(out.map((m) => m.id)).toEqual(["u1", "a1", "stored-note", "streamed-card"]);
  });

  it("every streamed result appears exactly once, stored ones are not doubled, the history's order is kept (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom("a", "b", "c", "d", "e"), { minLength: 1 }),
        fc.func(fc.boolean()),
        fc.func(fc.boolean()),
        (ids, isStored, isStreamed) => {
          const history: AgUiMessage[] = [
            { id: "m", role: "assistant", toolCalls: ids.map(call) },
            ...ids.filter((id) => isStored(id)).map((id) => tool(id, `stored-${id}`)),
          ];
          const streamed = new Map(ids.filter((id) => isStreamed(id)).map((id) => [id, tool(id)] as const));
          const out = withStreamedResults(history, streamed);
          const toolIds = out.flatMap((m) => (m.role === "tool" ? [m.toolCallId] : []));
          expect(new Set(toolIds).size).toBe(toolIds.length);
          expect(new Set(toolIds)).toEqual(new Set(ids.filter((id) => isStored(id) || isStreamed(id))));
          expect(out.filter((m) => history.includes(m))).toEqual(history);
          expect(out[0]!.id).toBe("m");
        },
      ),
    );
  });
});
