import { describe, expect, expectTypeOf, it } from "vitest";
import type { SubscriberAdapter, SubscriberEventArgs, SubscriberEventDataMap, SubscriberEventType } from "glove-core";
import { RecordingSubscriber } from "glove-core/testing";
import { makeGlove } from "../support/make-glove.js";

// record(type, data): checking the type narrows the data, so subscribers need no casts.
describe("a subscriber's record(type, data)", () => {
  it("narrows data on type, in methods and arrow functions", async () => {
    let screen = "";
    const printer: SubscriberAdapter = {
      record(type, data) {
        if (type === "text_delta") screen += data.text;
        if (type === "tool_use") screen += `[${data.name}]`;
        if (type === "tool_use_result") {
          expectTypeOf(data.result.status).toEqualTypeOf<"success" | "error" | "aborted">();
          screen += `[${data.result.status}]`;
        }
        // @ts-expect-error a text delta has no name: the data is the text_delta's
        if (type === "text_delta") void data.name;
      },
    };
    const totals: number[] = [];
    const counter: SubscriberAdapter = {
      record: async (type, data) => {
        if (type === "token_consumption") totals.push(data.consumption.tokens_in);
      },
    };
    const { glove } = makeGlove([
      { toolCalls: [{ name: "roll", input: {} }], tokens_in: 3 },
      { text: "A four.", tokens_in: 5 },
    ]);
    glove
      .fold({ name: "roll", description: "Rolls a die.", do: async () => 4 })
      .addSubscriber(printer)
      .addSubscriber(counter);
    await glove.processRequest("Roll");
    expect(screen).toBe("[roll][success]A four.");
    expect(totals).toEqual([3, 5]);
  });

  it("takes subscribers with fewer parameters: (type) => …, a one-parameter method, () => …", async () => {
    const types: SubscriberEventType[] = [];
    const arrow: SubscriberAdapter = { record: (type) => void types.push(type) };
    const method: SubscriberAdapter = {
      record(type) {
        expectTypeOf(type).toEqualTypeOf<SubscriberEventType>();
        types.push(type);
      },
    };
    const asyncArrow: SubscriberAdapter = { record: async (type) => void types.push(type) };
    let calls = 0;
    const none: SubscriberAdapter = { record: () => void calls++ };
    // @ts-expect-error an event type is a string
    const wrongType: SubscriberAdapter = { record: (type: number) => void type };
    // @ts-expect-error a subscriber is called with an event type first, not its data
    const dataFirst: SubscriberAdapter = { record: (data: { text: string }) => void data };
    void [wrongType, dataFirst];
    const { glove } = makeGlove([{ text: "Hi." }]);
    glove.addSubscriber(arrow).addSubscriber(method).addSubscriber(asyncArrow).addSubscriber(none);
    await glove.processRequest("Hello");
    // Each of the three saw every event (a text delta among them), the fourth was called as often.
    expect(types.filter((type) => type === "text_delta")).toHaveLength(3);
    expect(calls * 3).toBe(types.length);
  });

  it("gives a rest-parameter subscriber the events as SubscriberEventArgs", () => {
    const forwarded: SubscriberEventArgs[] = [];
    const forward: SubscriberAdapter = {
      record: (...event) => {
        expectTypeOf(event).toEqualTypeOf<SubscriberEventArgs>();
        const [type, data] = event;
        if (type === "text_delta") expectTypeOf(data.text).toEqualTypeOf<string>();
        forwarded.push(event);
      },
    };
    void forward.record("text_delta", { text: "x" });
    expect(forwarded).toEqual([["text_delta", { text: "x" }]]);
  });

  it("still takes the generic shape and classes written for it", () => {
    const generic: SubscriberAdapter = {
      record: <T extends SubscriberEventType>(type: T, data: SubscriberEventDataMap[T]) => void [type, data],
    };
    const loose: SubscriberAdapter = { record: (type: string, data: unknown) => void [type, data] };
    const recording: SubscriberAdapter = new RecordingSubscriber();
    expect([generic, loose, recording].every((s) => typeof s.record === "function")).toBe(true);
    recording.record("text_delta", { text: "x" });
    // @ts-expect-error the data must match the type
    recording.record("text_delta", { name: "x" });
  });
});
