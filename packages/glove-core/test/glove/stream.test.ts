import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  AbortError,
  ConfigurationError,
  Displaymanager,
  Glove,
  GloveError,
  type PlainRequestResult,
  type SubscriberEvent,
} from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { deferred, expectValidHistory, makeGlove } from "../support/make-glove.js";

async function collect(iterable: AsyncIterable<SubscriberEvent>): Promise<SubscriberEvent[]> {
  const out: SubscriberEvent[] = [];
  for await (const event of iterable) out.push(event);
  return out;
}

describe("glove.stream(text)", () => {
  it("yields the request's events in order, then ends; result is the request's result", async () => {
    const { glove, events } = makeGlove([
      { text: "Let me look.", toolCalls: [{ name: "lookup", input: { q: "x" } }] },
      { text: "Found it." },
    ]);
    glove.fold({ name: "lookup", description: "lookup", do: async () => "42" });
    const stream = glove.stream("find x");
    expectTypeOf(stream.result).toEqualTypeOf<Promise<PlainRequestResult>>();
    const seen = await collect(stream);
    expect(seen.map((e) => e.type)).toEqual([
      "text_delta",
      "text_delta",
      "text_delta",
      "tool_use",
      "model_response_complete",
      "token_consumption",
      "tool_use_result",
      "text_delta",
      "text_delta",
      "model_response_complete",
      "token_consumption",
    ]);
    expect(
      seen
        .filter((e) => e.type === "text_delta")
        .map((e) => (e as { text: string }).text)
        .join(""),
    ).toBe("Let me look.Found it.");
    // Subscribers still get every event, the same ones.
    expect(events.events).toEqual(seen);
    const result = await stream.result;
    expect("messages" in result && result.messages[0]!.text).toBe("Found it.");
  });

  it("a slow or late consumer loses nothing (events are buffered until read)", async () => {
    const { glove, events } = makeGlove([{ text: "one two three four five six seven" }]);
    const stream = glove.stream("count");
    await stream.result; // the request is over before anything is read
    const seen: SubscriberEvent[] = [];
    for await (const event of stream) {
      seen.push(event);
      await new Promise((r) => setTimeout(r, 1));
    }
    expect(seen).toEqual(events.events);
    expect(seen.filter((e) => e.type === "text_delta")).toHaveLength(7);
  });

  it("gets events still queued behind a slow subscriber before it ends", async () => {
    const { glove } = makeGlove([{ text: "done" }]);
    // A listener that reacts to the last event with one more, without awaiting it, and a slow subscriber.
    glove.addSubscriber({
      record: (type, _data) => {
        if (type === "token_consumption") void glove.bus.emit("hook_invoked", { name: "late" });
      },
    });
    glove.addSubscriber({ record: () => new Promise((r) => setTimeout(r, 5)) });
    const stream = glove.stream("go");
    const seen = await collect(stream);
    expect(seen.at(-1)).toEqual({ type: "hook_invoked", name: "late" });
  });

  it("breaking out of the loop aborts the request and leaves a valid conversation", async () => {
    const started = deferred();
    const { glove, store, model } = makeGlove([{ toolCalls: [{ name: "wait", input: {} }] }]);
    let aborted = false;
    glove.fold({
      name: "wait",
      description: "waits until aborted",
      do: (_input, _display, _glove, signal) =>
        new Promise((resolve) => {
          started.resolve();
          signal?.addEventListener("abort", () => {
            aborted = true;
            resolve("stopped");
          });
        }),
    });
    const stream = glove.stream("go");
    for await (const event of stream) {
      // Tools run after the turn's token count: leave while the tool is running.
      if (event.type === "token_consumption") {
        await started.promise;
        break;
      }
    }
    // The loop has exited only after the request wound down.
    expect(aborted).toBe(true);
    expect(glove.busy).toBe(false);
    const error = await stream.result.catch((e: unknown) => e);
    expect(AbortError.isInstance(error)).toBe(true);
    expect(glove.busy).toBe(false);
    await expectValidHistory(store);
    expect(model.requests).toHaveLength(1);
    // The Glove carries on.
    model.push({ text: "next answer" });
    const next = await collect(glove.stream("again"));
    expect(next.some((e) => e.type === "text_delta")).toBe(true);
  });

  it("a caller's signal aborts the stream; the iterator throws the AbortError after the buffered events", async () => {
    const controller = new AbortController();
    const { glove, store } = makeGlove([{ text: "slow words here" }], {
      model: new ScriptedModel([{ text: "slow words here" }], { delayMs: 20 }),
    });
    const stream = glove.stream("go", { signal: controller.signal });
    const seen: SubscriberEvent[] = [];
    const error = await (async () => {
      for await (const event of stream) {
        seen.push(event);
        controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(AbortError.isInstance(error)).toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(1);
    await expectValidHistory(store);
  });

  it("errors surface from the iterator (after the events before them) and from result", async () => {
    const failure = new GloveError("provider down", { code: "TEST_DOWN" });
    const { glove } = makeGlove([{ toolCalls: [{ name: "t", input: {} }] }, { error: failure }]);
    glove.fold({ name: "t", description: "t", do: async () => "ok" });
    const stream = glove.stream("go");
    const seen: SubscriberEvent[] = [];
    const error = await (async () => {
      for await (const event of stream) seen.push(event);
    })().catch((e: unknown) => e);
    expect(error).toBe(failure);
    expect(seen.map((e) => e.type)).toContain("tool_use_result");
    await expect(stream.result).rejects.toBe(failure);
    // The iterator is finished after the error.
    await expect(stream.next()).resolves.toEqual({ value: undefined, done: true });
  });

  it("two streams on two Gloves run concurrently and each sees only its own events", async () => {
    const a = makeGlove([], { model: new ScriptedModel([{ text: "alpha alpha alpha" }], { delayMs: 2 }) });
    const b = makeGlove([], { model: new ScriptedModel([{ text: "beta beta beta" }], { delayMs: 3 }) });
    const [ea, eb] = await Promise.all([collect(a.glove.stream("a")), collect(b.glove.stream("b"))]);
    const text = (events: SubscriberEvent[]) =>
      events
        .filter((e) => e.type === "text_delta")
        .map((e) => (e as { text: string }).text)
        .join("");
    expect(text(ea)).toBe("alpha alpha alpha");
    expect(text(eb)).toBe("beta beta beta");
    expect(ea).toEqual(a.events.events);
    expect(eb).toEqual(b.events.events);
  });

  it("two streams on one Glove take turns; neither sees the other's events", async () => {
    const { glove } = makeGlove([{ text: "first" }, { text: "second" }]);
    const s1 = glove.stream("1");
    const s2 = glove.stream("2");
    const [e2, e1] = await Promise.all([collect(s2), collect(s1)]);
    expect(e1.filter((e) => e.type === "text_delta")).toEqual([{ type: "text_delta", text: "first" }]);
    expect(e2.filter((e) => e.type === "text_delta")).toEqual([{ type: "text_delta", text: "second" }]);
  });

  it("events of a plain processRequest never reach a stream", async () => {
    const { glove } = makeGlove([{ text: "plain" }, { text: "streamed" }]);
    const plain = glove.processRequest("p");
    const stream = glove.stream("s");
    const seen = await collect(stream);
    await plain;
    expect(seen.filter((e) => e.type === "text_delta")).toEqual([{ type: "text_delta", text: "streamed" }]);
  });

  it("takes { output } too: result carries the typed output", async () => {
    const { glove } = makeGlove([{ text: '{"ok":true}' }]);
    const stream = glove.stream("go", { output: z.object({ ok: z.boolean() }) });
    const seen = await collect(stream);
    const { output } = await stream.result;
    expectTypeOf(output).toEqualTypeOf<{ ok: boolean }>();
    expect(output).toEqual({ ok: true });
    expect(seen.at(-1)!.type).toBe("token_consumption");
  });

  it("a stream that is never read still runs its request to the end", async () => {
    const { glove, events } = makeGlove([{ text: "unread" }]);
    const stream = glove.stream("go");
    await stream.result;
    expect(events.types()).toContain("model_response_complete");
    expect(await stream.return()).toEqual({ value: undefined, done: true });
  });

  it("misuse is a ConfigurationError: streaming before build(), and overlapping next() calls", async () => {
    const unbuilt = new Glove({
      model: new ScriptedModel([]),
      displayManager: new Displaymanager(),
      systemPrompt: "",
      compaction_config: { compaction_instructions: "" },
    });
    const early = unbuilt.stream("x");
    const error = await early.next().catch((e: unknown) => e);
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("build()");

    const { glove } = makeGlove([], { model: new ScriptedModel([{ text: "slow" }], { delayMs: 10 }) });
    const stream = glove.stream("go");
    const first = stream.next();
    const second = await stream.next().catch((e: unknown) => e);
    expect(ConfigurationError.isInstance(second)).toBe(true);
    expect(await first).toMatchObject({ done: false, value: { type: "text_delta" } });
    await stream.return();
  });
});
