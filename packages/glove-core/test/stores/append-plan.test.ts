import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  INTERRUPTED_TOOL_MESSAGE,
  MemoryStore,
  planAppend,
  planAppendSync,
  type Message,
  type MessageRange,
} from "../../src/index.js";

const user = (text: string): Message => ({ sender: "user", text });
const calls = (...ids: string[]): Message => ({
  sender: "agent",
  text: "",
  tool_calls: ids.map((id) => ({ tool_name: "t", id, input_args: {} })),
});
const results = (...ids: string[]): Message => ({
  sender: "user",
  text: "",
  tool_results: ids.map((call_id) => ({ tool_name: "t", call_id, result: { status: "success", data: 1 } })),
});

function reader(stored: Message[]) {
  const ranges: MessageRange[] = [];
  return { ranges, read: (range: MessageRange) => (ranges.push(range), stored.slice(range.from, range.to)) };
}

describe("the append plan every store runs", () => {
  it("reads one message when the conversation ends with a user's, and nothing for an empty batch or session", () => {
    const stored = [user("hi"), calls("c1"), results("c1"), user("next")];
    const { ranges, read } = reader(stored);
    expect(planAppendSync({ count: 4, lastCompaction: null }, [user("more")], read)).toEqual({
      repair: undefined,
      late: [],
    });
    expect(ranges).toEqual([{ from: 3, to: 4 }]);
    expect(planAppendSync({ count: 4, lastCompaction: null }, [], read)).toEqual({ repair: undefined, late: [] });
    expect(planAppendSync({ count: 0, lastCompaction: null }, [results("c1")], read)).toEqual({
      repair: undefined,
      late: [],
    });
    expect(ranges).toHaveLength(1);
  });

  it("answers every call of a turn longer than the 64-message window, reading back to the last compaction", () => {
    const turn = [user("summary"), user("go"), ...Array.from({ length: 100 }, (_, i) => calls(`c${i}`))];
    const { ranges, read } = reader(turn);
    const plan = planAppendSync({ count: turn.length, lastCompaction: 0 }, [user("are you there?")], read);
    expect(plan.repair?.tool_results?.map((r) => r.call_id)).toEqual(Array.from({ length: 100 }, (_, i) => `c${i}`));
    expect(plan.repair?.tool_results?.[0]?.result).toEqual({
      status: "aborted",
      data: null,
      message: INTERRUPTED_TOOL_MESSAGE,
    });
    expect(ranges).toEqual([
      { from: 101, to: 102 },
      { from: 38, to: 102 },
      { from: 0, to: 102 },
    ]);
  });

  it("refuses a result for a call the repair written with the same batch answers (no call gets two results)", () => {
    const stored = [user("go"), calls("c1")];
    const plan = planAppendSync(
      { count: 2, lastCompaction: null },
      [user("moved on"), results("c1")],
      reader(stored).read,
    );
    expect(plan.late).toEqual(["c1"]);
  });

  it("property: the synchronous and asynchronous drivers read the same ranges and plan the same", async () => {
    const message = fc.oneof(
      fc.string({ maxLength: 3 }).map(user),
      fc.array(fc.constantFrom("c1", "c2", "c3"), { maxLength: 3 }).map((ids) => calls(...ids)),
      fc.array(fc.constantFrom("c1", "c2", "c3", "c4"), { minLength: 1, maxLength: 2 }).map((ids) => results(...ids)),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(message, { maxLength: 90 }),
        fc.array(message, { maxLength: 3 }),
        async (stored, incoming) => {
          const at = { count: stored.length, lastCompaction: null };
          const sync = reader(stored);
          const async = reader(stored);
          const planned = planAppendSync(at, incoming, sync.read);
          expect(await planAppend(at, incoming, async (range) => async.read(range))).toEqual(planned);
          expect(async.ranges).toEqual(sync.ranges);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("MemoryStore repairs interrupted turns as the SQL stores do", () => {
  it("stores aborted results before the message that moves on, counted and read by every method", async () => {
    const store = new MemoryStore("repair");
    await store.appendMessages([user("go"), calls("c1", "c2")]);
    await store.appendMessages([user("are you there?")]);
    const aborted = (call_id: string) => ({
      tool_name: "t",
      call_id,
      result: { status: "aborted", data: null, message: INTERRUPTED_TOOL_MESSAGE },
    });
    const expected = [
      user("go"),
      calls("c1", "c2"),
      { sender: "user", text: "", tool_results: [aborted("c1"), aborted("c2")] },
      user("are you there?"),
    ];
    expect(await store.getMessages()).toEqual(expected);
    expect(await store.messageCount()).toBe(4);
    expect(await store.getMessagesSinceLastCompaction()).toEqual(expected);
    await expect(store.appendMessages([results("c1")])).rejects.toMatchObject({
      name: "MemoryStoreError",
      code: "GLOVE_STORE_CONFLICT",
    });
    await expect(store.appendMessages([results("c1")])).rejects.toThrow(
      /tool results for "c1" arrive after those calls were answered.*Nothing was written; reload the conversation\./,
    );
    expect(await store.messageCount()).toBe(4);
  });

  it("can leave interrupted calls alone when asked, and its sub-stores inherit that", async () => {
    const store = new MemoryStore("raw", { repairInterruptedToolCalls: false });
    const child = await store.createSubAgentStore("worker");
    for (const s of [store, child]) {
      await s.appendMessages([calls("c1")]);
      await s.appendMessages([user("next")]);
      await s.appendMessages([results("c1"), results("c1")]);
      expect(await s.messageCount!()).toBe(4);
    }
    const repairing = await new MemoryStore("p").createSubAgentStore("worker", true);
    await repairing.appendMessages([calls("c1")]);
    await repairing.appendMessages([user("next")]);
    expect(await repairing.messageCount!()).toBe(3);
  });
});
