import { describe, expect, it } from "vitest";
import { AbortError, Context, MemoryStore, type Message, splitAtLastCompaction } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { makeGlove } from "../support/make-glove.js";

const compaction = (limit: number, max_turns?: number) => ({
  compaction_config: { compaction_instructions: "SUMMARIZE-NOW", compaction_context_limit: limit, max_turns },
});

describe("compaction (decision 8)", () => {
  it("triggers on the real context size in a conversation without tools", async () => {
    const { glove, store, model, events } = makeGlove(
      [
        { text: "small answer", tokens_in: 100, tokens_out: 10 },
        { text: "big answer", tokens_in: 950, tokens_out: 60 },
        { text: "We talked about two things." },
        { text: "after compaction" },
      ],
      compaction(1000),
    );
    await glove.processRequest("first");
    expect(events.types()).not.toContain("compaction_start");
    await glove.processRequest("second");
    expect(events.types()).toContain("compaction_start");
    expect(events.types()).toContain("compaction_end");

    // The summary call asked with the instructions and carried no tools.
    const summaryRequest = model.requests[2]!;
    expect(summaryRequest.messages.at(-1)).toMatchObject({ text: "SUMMARIZE-NOW", is_compaction_request: true });
    const all = await store.getMessages();
    const summary = all.find((m) => m.is_compaction)!;
    expect(summary.text).toContain("We talked about two things.");
    // The request message is not persisted: only the summary is.
    expect(all.some((m) => m.is_compaction_request)).toBe(false);

    await glove.processRequest("third");
    const seen = model.requests[3]!.messages;
    expect(seen[0]!.is_compaction).toBe(true);
    expect(seen.map((m) => m.text)).toEqual([summary.text, "third"]);
    // Full history stays in the store.
    expect(all.map((m) => m.text).slice(0, 4)).toEqual(["first", "small answer", "second", "big answer"]);
  });

  it("the summary call streams no text_delta to subscribers", async () => {
    const { glove, events } = makeGlove(
      [{ text: "answer", tokens_in: 2000, tokens_out: 10 }, { text: "the summary words" }],
      compaction(1000),
    );
    await glove.processRequest("hi");
    const deltas = events.ofType("text_delta").map((e) => e.text.trim());
    expect(deltas).toEqual(["answer"]);
  });

  it("triggers after max_turns session turns and resets counters only after the summary is stored", async () => {
    const store = new MemoryStore("turns");
    const order: string[] = [];
    const realAppend = store.appendMessages.bind(store);
    store.appendMessages = async (msgs: Message[]) => {
      if (msgs.some((m) => m.is_compaction)) order.push("summary stored");
      return realAppend(msgs);
    };
    const realReset = store.resetCounters.bind(store);
    store.resetCounters = async () => {
      order.push("counters reset");
      return realReset();
    };
    const { glove } = makeGlove([{ text: "1" }, { text: "2" }, { text: "summary" }, { text: "3" }], {
      store,
      ...compaction(1_000_000, 2),
    });
    await glove.processRequest("a");
    expect(await store.getTurnCount()).toBe(1);
    await glove.processRequest("b");
    expect(order).toEqual(["summary stored", "counters reset"]);
    expect(await store.getTurnCount()).toBe(0);
    expect(await store.getTokenCount()).toBe(0);
  });

  it("a failed summary call leaves counters and history untouched", async () => {
    const { glove, store } = makeGlove(
      [{ text: "answer", tokens_in: 5000, tokens_out: 1 }, { error: new Error("summary failed") }],
      compaction(1000),
    );
    await expect(glove.processRequest("hi")).rejects.toThrow("summary failed");
    expect(await store.getTokenCount()).toBe(5001);
    expect((await store.getMessages()).some((m) => m.is_compaction)).toBe(false);
  });

  it("the summary call is abortable", async () => {
    const model = new ScriptedModel([{ text: "answer", tokens_in: 5000, tokens_out: 1 }, { text: "slow summary" }], {
      delayMs: 15,
    });
    const { glove, store } = makeGlove([], { model, ...compaction(1000) });
    const controller = new AbortController();
    // Abort as the summary call begins.
    glove.addSubscriber({
      record: async (type, _data) => {
        if (type === "compaction_start") setTimeout(() => controller.abort(), 5);
      },
    });
    const pending = glove.processRequest("hi", controller.signal);
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    expect((await store.getMessages()).some((m) => m.is_compaction)).toBe(false);
  });

  it("compacts pre-emptively after a tool turn near the limit, keeping tool pairs before the boundary", async () => {
    const { glove, store, model } = makeGlove(
      [
        { toolCalls: [{ name: "t", input: {} }], tokens_in: 920, tokens_out: 5 },
        { text: "summary of tool work" },
        { text: "final" },
      ],
      compaction(1000),
    );
    glove.fold({ name: "t", description: "t", do: async () => "result" });
    await glove.processRequest("go");
    const all = await store.getMessages();
    const boundary = all.findIndex((m) => m.is_compaction);
    expect(boundary).toBe(3); // user, agent(calls), user(results), summary
    expect(model.requests[2]!.messages[0]!.is_compaction).toBe(true);
  });

  it("runCompactionNow compacts regardless of thresholds", async () => {
    const { glove, events } = makeGlove([{ text: "hi" }, { text: "forced summary" }]);
    await glove.processRequest("hello");
    await glove.internals.observer.runCompactionNow();
    expect(events.ofType("compaction_end")[0]!.summary_message.text).toContain("forced summary");
  });
});

describe("Context", () => {
  it("splitAtLastCompaction returns history from the last summary on", () => {
    const msgs: Message[] = [
      { sender: "user", text: "a" },
      { sender: "user", text: "s1", is_compaction: true },
      { sender: "user", text: "b" },
      { sender: "user", text: "s2", is_compaction: true },
      { sender: "agent", text: "c" },
    ];
    expect(splitAtLastCompaction(msgs).map((m) => m.text)).toEqual(["s2", "c"]);
    expect(splitAtLastCompaction(msgs.slice(0, 1))).toHaveLength(1);
  });

  it("sees messages another writer appended to the same store", async () => {
    const store = new MemoryStore("shared");
    const ctx = new Context(store);
    await ctx.appendMessages([{ sender: "user", text: "mine" }]);
    expect((await ctx.getMessages()).map((m) => m.text)).toEqual(["mine"]);
    await store.appendMessages([{ sender: "agent", text: "theirs" }]);
    expect((await ctx.getMessages()).map((m) => m.text)).toEqual(["mine", "theirs"]);
  });

  it("task helpers fail clearly on a store without tasks", async () => {
    const store = new MemoryStore("x");
    const bare = { ...store, identifier: "bare", getTasks: undefined, addTasks: undefined, updateTask: undefined };
    await expect(new Context(bare as never).getTasks()).rejects.toThrow(/task support/);
  });
});

describe("turn limit per request", () => {
  it("MAX_TURNS ends the loop with a polite message and a valid history", async () => {
    const loop = { toolCalls: [{ name: "again", input: {} }] };
    const { glove, store, model } = makeGlove([loop, loop, loop, loop], { maxTurnsPerRequest: 3 });
    glove.fold({ name: "again", description: "loops", do: async () => "more" });
    const result = await glove.processRequest("loop forever");
    expect(model.requests).toHaveLength(3);
    expect("messages" in result && result.messages[0]!.text).toMatch(/stopped after 3 steps/);
    const all = await store.getMessages();
    expect(all.at(-1)!.sender).toBe("agent");
    expect(all.flatMap((m) => m.tool_calls ?? [])).toHaveLength(3);
    expect(all.flatMap((m) => m.tool_results ?? [])).toHaveLength(3);
  });
});
