import { describe, expect, expectTypeOf, it } from "vitest";
import type { SubscriberAdapter, SubscriberEventDataMap, SubscriberEventType } from "glove-core";
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
