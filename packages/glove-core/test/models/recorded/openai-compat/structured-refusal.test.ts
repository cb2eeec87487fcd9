/**
 * A recorded refusal answering a structured-output request, through a whole Glove: the request
 * fails with a StructuredOutputError whose reason is "refusal" (not a JSON parse failure), after
 * one model call — a refusal is never "repaired" — and the conversation stays valid.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { StructuredOutputError } from "glove-core";
import { expectValidHistory, makeGlove } from "../../../support/make-glove.js";
import { byteByByte, whole } from "../support/index.js";
import { RECORDED_REFUSAL, RECORDED_REFUSAL_WHOLE } from "./expectations.js";
import { fixture, replayAdapter } from "./harness.js";

const CalendarEvent = z.object({ name: z.string(), date: z.string(), participants: z.array(z.string()) });
const DOCUMENTED = "I'm sorry, I cannot assist with that request.";

describe("a refusal to a structured-output request", () => {
  for (const [name, chunking, REFUSAL] of [
    ["openai-refusal-whole", whole, DOCUMENTED],
    ["openai-refusal", byteByByte, DOCUMENTED],
    ["openai-recorded-refusal-whole", whole, RECORDED_REFUSAL_WHOLE],
    ["openai-recorded-refusal", byteByByte, RECORDED_REFUSAL],
  ] as const) {
    it(`${name}: a typed refusal error after one call, never a parse error or a repair turn`, async () => {
      const { adapter, script } = replayAdapter([{ fixture: fixture(name), chunking }]);
      const { glove, store, events } = makeGlove([], { model: adapter });

      const error = await glove
        .processRequest("Extract the event.", { output: CalendarEvent, outputRepairs: 2 })
        .catch((e: unknown) => e);

      expect(StructuredOutputError.isInstance(error)).toBe(true);
      const refused = error as StructuredOutputError;
      expect(refused.reason).toBe("refusal");
      expect(refused.rawText).toBe(REFUSAL);
      expect(refused.issues).toEqual([]);
      expect(refused.attempts).toBe(1);
      expect(refused.message).toMatch(/refused/);
      expect(refused.message).not.toMatch(/JSON|did not match/);
      // The schema went out natively, and only once.
      expect(script.requests).toHaveLength(1);
      expect(script.body(0)["response_format"]).toMatchObject({ type: "json_schema", json_schema: { strict: true } });
      expect(events.ofType("model_refusal").map((e) => e.text)).toEqual([REFUSAL]);

      const messages = await store.getMessages();
      expect(messages.at(-1)).toMatchObject({ sender: "agent", text: REFUSAL, is_refusal: true, provider: "openai" });
      await expectValidHistory(store);
    });
  }
});
