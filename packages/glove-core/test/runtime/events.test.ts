import { describe, expect, it, vi } from "vitest";
import { EventBus, type SubscriberEvent } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { makeGlove } from "../support/make-glove.js";

describe("events (decision 6)", () => {
  it("reach a slow async subscriber in order, even from un-awaited and concurrent emitters", async () => {
    const bus = new EventBus();
    const seen: string[] = [];
    bus.add({
      record: async (_type, data) => {
        // Later events would overtake earlier ones if deliveries overlapped.
        const text = (data as { text: string }).text;
        await new Promise((r) => setTimeout(r, text === "first" ? 20 : 1));
        seen.push(text);
      },
    });
    void bus.emit("text_delta", { text: "first" });
    void bus.emit("text_delta", { text: "second" });
    await bus.emit("text_delta", { text: "third" });
    expect(seen).toEqual(["first", "second", "third"]);
  });

  it("a full run emits streaming, tool and token events in order to an async subscriber", async () => {
    const { glove, events } = makeGlove([
      { text: "Checking now", toolCalls: [{ name: "t", input: {} }] },
      { text: "Done." },
    ]);
    glove.fold({ name: "t", description: "t", do: async () => "ok" });
    await glove.processRequest("go");
    expect(events.types()).toEqual([
      "text_delta",
      "text_delta",
      "tool_use",
      "model_response_complete",
      "token_consumption",
      "tool_use_result",
      "text_delta",
      "model_response_complete",
      "token_consumption",
    ]);
  });

  it("a throwing subscriber does not break the run or starve other subscribers", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const { glove, events } = makeGlove([{ text: "hello there" }]);
    glove.addSubscriber({
      record: async () => {
        throw new Error("subscriber bug");
      },
    });
    glove.addSubscriber({
      record: () => {
        throw new Error("sync subscriber bug");
      },
    });
    const result = await glove.processRequest("hi");
    expect("messages" in result && result.messages[0]!.text).toBe("hello there");
    expect(events.types()).toContain("model_response_complete");
    expect(errors).toHaveBeenCalled();
    errors.mockRestore();
  });

  it("removeSubscriber stops delivery", async () => {
    const { glove, events } = makeGlove([{ text: "a" }, { text: "b" }]);
    await glove.processRequest("1");
    const count = events.events.length;
    glove.removeSubscriber(events);
    await glove.processRequest("2");
    expect(events.events.length).toBe(count);
  });

  it("bus sinks receive whole event objects", async () => {
    const bus = new EventBus();
    const got: SubscriberEvent[] = [];
    const remove = bus.addSink((e) => {
      got.push(e);
    });
    await bus.emit("hook_invoked", { name: "x" });
    remove();
    await bus.emit("hook_invoked", { name: "y" });
    expect(got).toEqual([{ type: "hook_invoked", name: "x" }]);
  });
});

describe("system prompt per call (decision 7)", () => {
  it("two Gloves sharing one model adapter each send their own system prompt on every call", async () => {
    const shared = new ScriptedModel([], { fallback: { text: "ok" }, delayMs: 2 });
    const a = makeGlove([], { model: shared, systemPrompt: "PROMPT-A" });
    const b = makeGlove([], { model: shared, systemPrompt: "PROMPT-B" });
    await Promise.all([
      a.glove.processRequest("from a 1"),
      b.glove.processRequest("from b 1"),
      a.glove.processRequest("from a 2"),
      b.glove.processRequest("from b 2"),
    ]);
    expect(shared.requests).toHaveLength(4);
    for (const request of shared.requests) {
      const user = request.messages.at(-1)!.text;
      expect(request.systemPrompt).toBe(user.startsWith("from a") ? "PROMPT-A" : "PROMPT-B");
    }
  });
});

describe("one request at a time (decision 11)", () => {
  it("concurrent processRequest calls queue FIFO and never interleave", async () => {
    const model = new ScriptedModel(
      [{ text: "", toolCalls: [{ name: "wait", input: {} }] }, { text: "first answer" }, { text: "second answer" }],
      { delayMs: 1 },
    );
    const { glove, store } = makeGlove([], { model });
    glove.fold({ name: "wait", description: "w", do: () => new Promise((r) => setTimeout(() => r("waited"), 20)) });
    const [r1, r2] = await Promise.all([glove.processRequest("one"), glove.processRequest("two")]);
    expect("messages" in r1 && r1.messages[0]!.text).toBe("first answer");
    expect("messages" in r2 && r2.messages[0]!.text).toBe("second answer");
    const texts = (await store.getMessages()).map(
      (m) => `${m.sender}:${m.text || (m.tool_calls ? "calls" : "results")}`,
    );
    expect(texts).toEqual([
      "user:one",
      "agent:calls",
      "user:results",
      "agent:first answer",
      "user:two",
      "agent:second answer",
    ]);
  });

  it("a failed request does not block the queue", async () => {
    const { glove } = makeGlove([{ error: new Error("provider down") }, { text: "recovered" }]);
    const [a, b] = await Promise.allSettled([glove.processRequest("1"), glove.processRequest("2")]);
    expect(a.status).toBe("rejected");
    expect(b.status === "fulfilled" && "messages" in b.value && b.value.messages[0]!.text).toBe("recovered");
  });
});
