/**
 * Property: however the body of a recorded response is cut on its way in — anywhere, including
 * inside a UTF-8 character or between an SSE event's two newlines — the adapter reads the same
 * answer (text, calls with their extras, reasoning, refusal, usage) and emits the same events as
 * when the body arrives whole.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbitraryChunking, whole } from "../support/index.js";
import { EXPECTED } from "./expectations.js";
import { fixture, runFixture, type Run } from "./harness.js";

const parsed = (run: Run) => ({ result: run.result, events: run.events });

describe("any chunking of any fixture parses like the whole body", () => {
  for (const [name, expected] of Object.entries(EXPECTED)) {
    it(name, async () => {
      const baseline = parsed(await runFixture(name, whole, expected.options));
      const length = fixture(name).response.body.length;
      await fc.assert(
        fc.asyncProperty(arbitraryChunking(length), async (chunking) => {
          expect(parsed(await runFixture(name, chunking.cut, expected.options))).toEqual(baseline);
        }),
        { numRuns: 30, seed: 13 },
      );
    });
  }
});
