import { describe, expect, it } from "vitest";
import { MemoryStore, type Message } from "glove-core";
import { ObservedStore } from "../src/conversations/observed-store.js";

function observe(inner = new MemoryStore("c")) {
  const appended: Array<[string[], number]> = [];
  const observed = new ObservedStore(inner, {
    onMessagesAppended: (messages, start) => appended.push([messages.map((m) => m.text), start]),
    onTasksChanged: () => {},
    onInboxChanged: () => {},
    onBranchesChanged: () => {},
  });
  return { observed, appended, inner };
}

const texts = (...t: string[]): Message[] => t.map((text) => ({ sender: "agent", text }));

describe("ObservedStore", () => {
  it("reports a model call's messages as an append: the start index, a version change, nothing for an empty call", async () => {
    const { observed, appended, inner } = observe();
    await observed.store.appendMessages([{ sender: "user", text: "hi" }]);
    const before = observed.version;
    await observed.store.recordModelCall!({ messages: texts("a", "b"), tokens: { tokens_in: 3, tokens_out: 1 } });
    expect(observed.version).toBeGreaterThan(before);
    expect(observed.writing).toBe(false);
    await observed.store.recordModelCall!({ messages: [], tokens: { tokens_in: 1, tokens_out: 0 } });
    await observed.store.appendMessages(texts("c"));
    expect(appended).toEqual([
      [["hi"], 0],
      [["a", "b"], 1],
      [["c"], 3],
    ]);
    expect([await inner.getTokenCount(), await inner.getTurnCount()]).toEqual([5, 2]);
  });

  it("reports the aborted results a store adds before a model call's messages", async () => {
    const { observed, appended } = observe();
    observed.setMessageCount(0);
    await observed.store.appendMessages([
      { sender: "agent", text: "calling", tool_calls: [{ tool_name: "t", id: "c1", input_args: {} }] },
    ]);
    await observed.store.recordModelCall!({ messages: texts("moved on"), tokens: { tokens_in: 1, tokens_out: 1 } });
    expect(appended).toEqual([
      [["calling"], 0],
      [["", "moved on"], 1],
    ]);
  });

  it("a refused model call reports nothing", async () => {
    const { observed, appended } = observe();
    await expect(
      observed.store.recordModelCall!({ messages: texts("x"), tokens: { tokens_in: -1, tokens_out: 0 } }),
    ).rejects.toMatchObject({ code: "GLOVE_STORE_INVALID" });
    expect(appended).toEqual([]);
    expect(observed.writing).toBe(false);
  });

  it("hands out one wrapper per method, not a new function on every read; a method replaced on the store gets a new one", async () => {
    const { observed, inner } = observe();
    const { store } = observed;
    expect(store.getMessages).toBe(store.getMessages);
    expect(store.appendMessages).toBe(store.appendMessages);
    expect(store.recordModelCall).toBe(store.recordModelCall);
    expect(store.addTasks).toBe(store.addTasks);
    const first = store.getTokenCount;
    (inner as { getTokenCount: () => Promise<number> }).getTokenCount = async () => 42;
    expect(store.getTokenCount).not.toBe(first);
    expect(await store.getTokenCount()).toBe(42);
    expect(store.identifier).toBe("c");
  });

  it("a store without recordModelCall stays without it", () => {
    const inner = new MemoryStore("c");
    (inner as { recordModelCall?: unknown }).recordModelCall = undefined;
    expect(observe(inner).observed.store.recordModelCall).toBeUndefined();
  });
});
