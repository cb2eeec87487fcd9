import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { EventBus, type SubscriberAdapter } from "glove-core";

/** A subscriber that logs events, answering synchronously or after a delay per event. */
function subscriber(name: string, log: string[], delays: number[]): SubscriberAdapter {
  let n = 0;
  return {
    record: ((type: string, data: { text: string }) => {
      const delay = delays[n++ % delays.length]!;
      const write = () => void log.push(`${name}:${data.text}`);
      if (delay < 0) {
        write();
        return undefined as unknown as Promise<void>;
      }
      return new Promise<void>((resolve) => setTimeout(() => (write(), resolve()), delay));
    }) as SubscriberAdapter["record"],
  };
}

describe("EventBus ordering with synchronous delivery", () => {
  it("property: every subscriber sees every event in emit order, whether listeners answer synchronously or not", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.constantFrom(-1, -1, 0, 1), { minLength: 1, maxLength: 4 }), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.integer({ min: 1, max: 12 }),
        fc.boolean(),
        async (subscribers, events, awaitEach) => {
          const bus = new EventBus();
          const log: string[] = [];
          subscribers.forEach((delays, i) => bus.add(subscriber(`s${i}`, log, delays)));
          const pending: Promise<void>[] = [];
          for (let e = 0; e < events; e++) {
            const p = bus.emit("text_delta", { text: String(e) });
            if (awaitEach) await p;
            else pending.push(p);
          }
          await Promise.all(pending);
          for (let i = 0; i < subscribers.length; i++) {
            expect(log.filter((l) => l.startsWith(`s${i}:`))).toEqual(
              Array.from({ length: events }, (_, e) => `s${i}:${e}`),
            );
          }
        },
      ),
      { numRuns: 80 },
    );
  });

  it("an emit from inside a listener is delivered after the current event reached every listener", async () => {
    const bus = new EventBus();
    const log: string[] = [];
    bus.add({
      record: ((type: string, data: { text: string }) => {
        log.push(`a:${data.text}`);
        if (data.text === "1") void bus.emit("text_delta", { text: "nested" });
        return undefined as unknown as Promise<void>;
      }) as SubscriberAdapter["record"],
    });
    bus.add(subscriber("b", log, [-1]));
    await bus.emit("text_delta", { text: "1" });
    await bus.emit("text_delta", { text: "2" });
    expect(log).toEqual(["a:1", "b:1", "a:nested", "b:nested", "a:2", "b:2"]);
  });

  it("a throwing listener is isolated and the others still get the event", async () => {
    const bus = new EventBus();
    const log: string[] = [];
    const errors = console.error;
    console.error = () => undefined;
    try {
      bus.add({
        record: (() => {
          throw new Error("boom");
        }) as SubscriberAdapter["record"],
      });
      bus.add(subscriber("ok", log, [-1, 0]));
      await bus.emit("text_delta", { text: "x" });
      await bus.emit("text_delta", { text: "y" });
    } finally {
      console.error = errors;
    }
    expect(log).toEqual(["ok:x", "ok:y"]);
  });
});
