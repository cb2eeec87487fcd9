import { describe, expect, it, vi } from "vitest";
import {
  AbortError,
  Displaymanager,
  Glove,
  GloveError,
  MemoryStore,
  type NotifySubscribersFunction,
  type PromptRequest,
  type SubscriberEvent,
} from "glove-core";
import { RecordingSubscriber, ScriptedModel, estimateTokens } from "glove-core/testing";

/** A notify function that records events like a subscriber would. */
function recorder(): { notify: NotifySubscribersFunction; events: SubscriberEvent[]; types: () => string[] } {
  const events: SubscriberEvent[] = [];
  const notify: NotifySubscribersFunction = async (type, data) => {
    events.push({ type, ...data } as SubscriberEvent);
  };
  return { notify, events, types: () => events.map((e) => e.type) };
}

const request = (text = "hi"): PromptRequest => ({ messages: [{ sender: "user", text }], systemPrompt: "sys" });

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("ScriptedModel streaming (default)", () => {
  it("emits a text_delta per chunk, a tool_use per call, then exactly one model_response_complete", async () => {
    const model = new ScriptedModel([
      {
        text: "Let me check that.",
        toolCalls: [
          { name: "search", input: { q: "a" }, id: "c1" },
          { name: "fetch", input: { url: "u" } },
        ],
      },
    ]);
    const { notify, events, types } = recorder();
    const result = await model.prompt(request(), notify);

    expect(types()).toEqual([
      "text_delta",
      "text_delta",
      "text_delta",
      "text_delta",
      "tool_use",
      "tool_use",
      "model_response_complete",
    ]);
    const deltas = events.flatMap((e) => (e.type === "text_delta" ? [e.text] : []));
    expect(deltas).toEqual(["Let ", "me ", "check ", "that."]);
    expect(events.filter((e) => e.type === "tool_use")).toEqual([
      { type: "tool_use", id: "c1", name: "search", input: { q: "a" } },
      { type: "tool_use", id: expect.any(String), name: "fetch", input: { url: "u" } },
    ]);
    const complete = events.at(-1);
    expect(complete).toMatchObject({
      type: "model_response_complete",
      text: "Let me check that.",
      stop_reason: "tool_use",
      tool_calls: [
        { tool_name: "search", input_args: { q: "a" }, id: "c1" },
        { tool_name: "fetch", input_args: { url: "u" } },
      ],
    });
    expect(result.messages).toEqual([
      {
        sender: "agent",
        text: "Let me check that.",
        tool_calls: [
          { tool_name: "search", input_args: { q: "a" }, id: "c1" },
          { tool_name: "fetch", input_args: { url: "u" }, id: expect.any(String) },
        ],
      },
    ]);
    // The generated id is the same in the event, the summary and the message.
    const generated = result.messages[0]?.tool_calls?.[1]?.id;
    expect(events[5]).toMatchObject({ type: "tool_use", id: generated });
    expect(complete).toMatchObject({ tool_calls: [{}, { id: generated }] });
  });

  it("splits text on word boundaries by default and by chunkSize when set", async () => {
    const words = recorder();
    await new ScriptedModel([{ text: "one two  three" }]).prompt(request(), words.notify);
    expect(words.events.flatMap((e) => (e.type === "text_delta" ? [e.text] : []))).toEqual(["one ", "two  ", "three"]);

    const sized = recorder();
    await new ScriptedModel([{ text: "abcdefghij" }], { chunkSize: 4 }).prompt(request(), sized.notify);
    expect(sized.events.flatMap((e) => (e.type === "text_delta" ? [e.text] : []))).toEqual(["abcd", "efgh", "ij"]);
  });

  it("emits no text_delta for an empty text, but still one model_response_complete", async () => {
    const { types } = await (async () => {
      const r = recorder();
      await new ScriptedModel([{ toolCalls: [{ name: "t", input: {} }] }]).prompt(request(), r.notify);
      return r;
    })();
    expect(types()).toEqual(["tool_use", "model_response_complete"]);
  });
});

describe("ScriptedModel non-streaming", () => {
  it("stream: false emits exactly one model_response and no text_delta, tool_use or model_response_complete", async () => {
    const model = new ScriptedModel([{ text: "Hello there, friend.", toolCalls: [{ name: "t", input: { a: 1 } }] }], {
      stream: false,
    });
    const { notify, events, types } = recorder();
    const result = await model.prompt(request(), notify);
    expect(types()).toEqual(["model_response"]);
    expect(events[0]).toMatchObject({
      type: "model_response",
      text: "Hello there, friend.",
      stop_reason: "tool_use",
      tool_calls: [{ tool_name: "t", input_args: { a: 1 } }],
      tokens_in: result.tokens_in,
      tokens_out: result.tokens_out,
    });
  });
});

describe("ScriptedModel results", () => {
  it("reports stop_reason: end_turn for text, tool_use with calls, or the scripted override", async () => {
    const r = recorder();
    const model = new ScriptedModel([
      { text: "done" },
      { toolCalls: [{ name: "t", input: {} }] },
      { text: "cut", stop_reason: "max_tokens" },
    ]);
    for (let i = 0; i < 3; i++) await model.prompt(request(), r.notify);
    const reasons = r.events.flatMap((e) => (e.type === "model_response_complete" ? [e.stop_reason] : []));
    expect(reasons).toEqual(["end_turn", "tool_use", "max_tokens"]);
  });

  it("reports token counts in the result and the event, estimated or scripted", async () => {
    const r = recorder();
    const model = new ScriptedModel([{ text: "twelve chars" }, { text: "x", tokens_in: 123, tokens_out: 45 }]);
    const estimated = await model.prompt({ messages: [{ sender: "user", text: "a".repeat(40) }] }, r.notify);
    expect(estimated.tokens_in).toBe(10);
    expect(estimated.tokens_out).toBe(estimateTokens("twelve chars"));
    expect(estimated.tokens_out).toBeGreaterThan(0);
    const scripted = await model.prompt(request(), r.notify);
    expect(scripted).toMatchObject({ tokens_in: 123, tokens_out: 45 });
    const completes = r.events.filter((e) => e.type === "model_response_complete");
    expect(completes.map((e) => [e.tokens_in, e.tokens_out])).toEqual([
      [10, estimateTokens("twelve chars")],
      [123, 45],
    ]);
  });

  it("counts a longer request as more input tokens", async () => {
    const model = new ScriptedModel([{ text: "a" }, { text: "b" }]);
    const short = await model.prompt(request("hi"), recorder().notify);
    const long = await model.prompt(request("hi ".repeat(200)), recorder().notify);
    expect(long.tokens_in).toBeGreaterThan(short.tokens_in);
  });

  it("returns reasoning as reasoning_content", async () => {
    const result = await new ScriptedModel([{ text: "a", reasoning: "because" }]).prompt(request(), recorder().notify);
    expect(result.messages[0]?.reasoning_content).toBe("because");
  });

  it("records every request in order, and the last setSystemPrompt", async () => {
    const model = new ScriptedModel([{ text: "a" }, { text: "b" }]);
    const first = request("first");
    const second = request("second");
    model.setSystemPrompt("set prompt");
    await model.prompt(first, recorder().notify);
    await model.prompt(second, recorder().notify);
    expect(model.requests).toEqual([first, second]);
    // A snapshot: the runtime's array keeps growing after the call, the record must not.
    expect(model.requests[0]!.messages).not.toBe(first.messages);
    first.messages.push({ sender: "user", text: "appended later" });
    expect(model.requests[0]!.messages).toHaveLength(first.messages.length - 1);
    expect(model.lastSetSystemPrompt).toBe("set prompt");
    expect(model.remaining).toBe(0);
  });

  it("records the requests a Glove sends, with system prompt and tools", async () => {
    const model = new ScriptedModel([{ text: "hello" }]);
    const events = new RecordingSubscriber();
    const glove = new Glove({
      model,
      store: new MemoryStore("s"),
      displayManager: new Displaymanager(),
      systemPrompt: "Be brief.",
      compaction_config: { compaction_instructions: "s" },
    })
      .fold({ name: "noop", description: "d", do: async () => "x" })
      .addSubscriber(events)
      .build();
    await glove.processRequest("hi");
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]?.systemPrompt).toBe("Be brief.");
    expect(model.requests[0]?.messages.map((m) => m.text)).toEqual(["hi"]);
    expect(model.requests[0]?.tools?.map((t) => t.name)).toContain("noop");
    expect(events.ofType("model_response_complete")).toHaveLength(1);
    expect(
      events
        .ofType("text_delta")
        .map((e) => e.text)
        .join(""),
    ).toBe("hello");
  });
});

describe("ScriptedModel control flow", () => {
  it("rejects with AbortError when the signal is already aborted, without emitting", async () => {
    const controller = new AbortController();
    controller.abort();
    const r = recorder();
    const error = await errorOf(new ScriptedModel([{ text: "never" }]).prompt(request(), r.notify, controller.signal));
    expect(AbortError.isInstance(error)).toBe(true);
    expect(r.events).toEqual([]);
  });

  it("rejects with AbortError when aborted mid-stream, and emits no model_response_complete", async () => {
    const controller = new AbortController();
    const r = recorder();
    const model = new ScriptedModel([{ text: "one two three four five six" }], { delayMs: 5 });
    const notify: NotifySubscribersFunction = async (type, data) => {
      await r.notify(type, data);
      if (r.events.length === 2) controller.abort();
    };
    const error = await errorOf(model.prompt(request(), notify, controller.signal));
    expect(AbortError.isInstance(error)).toBe(true);
    expect(r.types()).toEqual(["text_delta", "text_delta"]);
  });

  it("rejects with AbortError when aborted while the last chunk is delivered, never emitting model_response_complete", async () => {
    const controller = new AbortController();
    const r = recorder();
    const notify: NotifySubscribersFunction = async (type, data) => {
      await r.notify(type, data);
      if (type === "tool_use") controller.abort();
    };
    const model = new ScriptedModel([{ text: "calling", toolCalls: [{ name: "t", input: {} }] }]);
    const error = await errorOf(model.prompt(request(), notify, controller.signal));
    expect(AbortError.isInstance(error)).toBe(true);
    expect(r.types()).toEqual(["text_delta", "tool_use"]);
  });

  it("honours an abort raised by a subscriber at once, without sitting out the next delay", async () => {
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      const r = recorder();
      const notify: NotifySubscribersFunction = async (type, data) => {
        await r.notify(type, data);
        controller.abort(); // e.g. voice barge-in on the first chunk
      };
      const model = new ScriptedModel([{ text: "one two three" }], { delayMs: 60_000 });
      let settled: unknown = "pending";
      model.prompt(request(), notify, controller.signal).then(
        () => (settled = "resolved"),
        (e: unknown) => (settled = e),
      );
      await vi.advanceTimersByTimeAsync(60_000); // first chunk's delay
      expect(r.types()).toEqual(["text_delta"]);
      await vi.advanceTimersByTimeAsync(0); // no more time passes
      expect(AbortError.isInstance(settled)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("rejects with AbortError when aborted during a non-streaming delay", async () => {
    const controller = new AbortController();
    const model = new ScriptedModel([{ text: "slow" }], { stream: false, delayMs: 10_000 });
    const r = recorder();
    const pending = model.prompt(request(), r.notify, controller.signal);
    setTimeout(() => controller.abort(), 5);
    const error = await errorOf(pending);
    expect(AbortError.isInstance(error)).toBe(true);
    expect(r.events).toEqual([]);
  });

  it("throws a clear error when it runs out of turns, and plays the fallback instead when set", async () => {
    const model = new ScriptedModel([{ text: "only one" }], { name: "tiny" });
    await model.prompt(request(), recorder().notify);
    const error = await errorOf(model.prompt(request(), recorder().notify));
    expect(GloveError.isInstance(error)).toBe(true);
    expect((error as GloveError).code).toBe("GLOVE_SCRIPT_EXHAUSTED");
    expect((error as Error).message).toMatch(/"tiny" ran out of turns after 1 calls/);
    expect((error as Error).message).toMatch(/push\(\)|fallback/);

    const withFallback = new ScriptedModel([], { fallback: { text: "default" } });
    const a = await withFallback.prompt(request(), recorder().notify);
    const b = await withFallback.prompt(request(), recorder().notify);
    expect([a.messages[0]?.text, b.messages[0]?.text]).toEqual(["default", "default"]);
  });

  it("push() adds turns to the end of the script", async () => {
    const model = new ScriptedModel([{ text: "a" }]).push({ text: "b" }, { text: "c" });
    expect(model.remaining).toBe(3);
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) texts.push((await model.prompt(request(), recorder().notify)).messages[0]?.text ?? "");
    expect(texts).toEqual(["a", "b", "c"]);
  });

  it("function steps receive the request and the call index", async () => {
    const seen: Array<[PromptRequest, number]> = [];
    const model = new ScriptedModel([
      { text: "first" },
      (req, index) => {
        seen.push([req, index]);
        return { text: `echo ${req.messages.at(-1)?.text} #${index}` };
      },
    ]);
    await model.prompt(request("one"), recorder().notify);
    const second = request("two");
    const result = await model.prompt(second, recorder().notify);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.[0]).toBe(second);
    expect(seen[0]?.[1]).toBe(1);
    expect(result.messages[0]?.text).toBe("echo two #1");
  });

  it("throws a scripted error instead of answering", async () => {
    const boom = new Error("provider 500");
    const r = recorder();
    const error = await errorOf(new ScriptedModel([{ error: boom }]).prompt(request(), r.notify));
    expect(error).toBe(boom);
    expect(r.events).toEqual([]);
  });
});
