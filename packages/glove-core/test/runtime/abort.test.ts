import { describe, expect, it } from "vitest";
import { AbortError, MemoryStore } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { deferred, expectValidHistory, makeGlove } from "../support/make-glove.js";

describe("abort (decision 4)", () => {
  it("abort during a tool rejects with AbortError, pairs every call with a result, and the next request works", async () => {
    const started = deferred();
    const controller = new AbortController();
    const { glove, store } = makeGlove([
      {
        toolCalls: [
          { name: "hang", input: {}, id: "h1" },
          { name: "quick", input: {}, id: "q1" },
        ],
      },
      { text: "fresh start" },
    ]);
    let sawSignal: AbortSignal | undefined;
    glove
      .fold({
        name: "hang",
        description: "never finishes on its own",
        async do(_input, _display, _glove, signal) {
          sawSignal = signal;
          started.resolve();
          return new Promise(() => {});
        },
      })
      .fold({ name: "quick", description: "quick", do: async () => "quick done" });

    const quickReported = deferred();
    glove.addSubscriber({
      record: async (type, data) => {
        if (type === "tool_use_result" && (data as { call_id?: string }).call_id === "q1") quickReported.resolve();
      },
    });
    const pending = glove.processRequest("start", controller.signal);
    await started.promise;
    await quickReported.promise;
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect(AbortError.isInstance(error)).toBe(true);
    expect((error as Error).name).toBe("AbortError");
    expect(sawSignal?.aborted).toBe(true);

    await expectValidHistory(store);
    const results = (await store.getMessages()).find((m) => m.tool_results)!.tool_results!;
    expect(results.map((r) => [r.call_id, r.result.status])).toEqual([
      ["h1", "aborted"],
      ["q1", "success"],
    ]);

    const next = await glove.processRequest("again");
    expect("messages" in next && next.messages[0]!.text).toBe("fresh start");
    await expectValidHistory(store);
  });

  it("an unAbortable tool finishes and its real result is kept", async () => {
    const started = deferred();
    const finish = deferred();
    const controller = new AbortController();
    const { glove, store } = makeGlove([{ toolCalls: [{ name: "pay", input: {}, id: "p1" }] }]);
    let receivedSignal: AbortSignal | undefined | null = null;
    glove.fold({
      name: "pay",
      description: "charges a card",
      unAbortable: true,
      async do(_i, _d, _g, signal) {
        receivedSignal = signal;
        started.resolve();
        await finish.promise;
        return { status: "success", data: "charged $5" };
      },
    });
    const pending = glove.processRequest("pay", controller.signal);
    await started.promise;
    controller.abort();
    finish.resolve();
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    expect(receivedSignal).toBeUndefined();
    const result = (await store.getMessages()).find((m) => m.tool_results)!.tool_results![0]!.result;
    expect(result).toEqual({ status: "success", data: "charged $5" });
  });

  it("abort during the model call rejects with AbortError and keeps history valid", async () => {
    const model = new ScriptedModel([{ text: "a long streamed answer that will be cut" }, { text: "ok" }], {
      delayMs: 20,
    });
    const { glove, store } = makeGlove([], { model });
    const controller = new AbortController();
    const pending = glove.processRequest("hi", controller.signal);
    setTimeout(() => controller.abort(), 30);
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    expect((await store.getMessages()).map((m) => m.sender)).toEqual(["user"]);
    await glove.processRequest("hi again");
    expect((await store.getMessages()).at(-1)!.text).toBe("ok");
  });

  it("an already-aborted signal rejects before anything is persisted", async () => {
    const { glove, store, model } = makeGlove([{ text: "never" }]);
    const controller = new AbortController();
    controller.abort();
    await expect(glove.processRequest("hi", controller.signal)).rejects.toBeInstanceOf(AbortError);
    expect(await store.getMessages()).toEqual([]);
    expect(model.requests).toHaveLength(0);
  });
});

describe("interrupted runs", () => {
  it("tool calls left unanswered by a crash get aborted results before the next request", async () => {
    const store = new MemoryStore("crashed");
    // What a process killed mid-tool leaves behind: the calls are stored, their results are not.
    await store.appendMessages([
      { sender: "user", text: "deploy" },
      { sender: "agent", text: "", tool_calls: [{ tool_name: "deploy", input_args: {}, id: "d1" }] },
    ]);
    const { glove, model } = makeGlove([{ text: "The deploy was interrupted; shall I retry?" }], { store });
    await glove.processRequest("what happened?");
    const sent = model.requests[0]!.messages;
    expect(sent.map((m) => m.sender)).toEqual(["user", "agent", "user", "user"]);
    expect(sent[2]!.tool_results).toEqual([
      { tool_name: "deploy", call_id: "d1", result: expect.objectContaining({ status: "aborted" }) },
    ]);
    await expectValidHistory(store);
  });
});
