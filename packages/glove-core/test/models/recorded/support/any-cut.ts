/**
 * The chunking checks every recorded-stream test makes: each standard cut, and (property) any
 * cut at all, reads like the whole body. `outcome` says what one replay gives (answer, events or
 * error fields) in whatever form the adapter's test compares.
 */
import fc from "fast-check";
import { expect } from "vitest";
import { arbitraryChunking, standardChunkings, whole, type Chunking } from "./chunking.js";
import type { RecordedResponse } from "./recorded-response.js";

/** What one replay of `response` cut by `cut` gives, in a form `toEqual` can compare. */
export type ReplayOutcome = (response: RecordedResponse, cut: Chunking) => Promise<unknown>;

/** Every standard chunking of `response` gives what the whole body gives; returns that reference. */
export async function expectStandardCutsReadWhole(
  response: RecordedResponse,
  outcome: ReplayOutcome,
): Promise<unknown> {
  const reference = await outcome(response, whole);
  for (const chunking of standardChunkings)
    expect(await outcome(response, chunking.cut), chunking.name).toEqual(reference);
  return reference;
}

/** Property: any cut of any of `responses` gives what its whole body gives. */
export async function expectAnyCutReadsWhole(
  responses: RecordedResponse[],
  outcome: ReplayOutcome,
  numRuns = 60,
): Promise<void> {
  const references = await Promise.all(responses.map((r) => outcome(r, whole)));
  await fc.assert(
    fc.asyncProperty(
      fc
        .integer({ min: 0, max: responses.length - 1 })
        .chain((i) => fc.tuple(fc.constant(i), arbitraryChunking(responses[i]!.body.length))),
      async ([i, chunking]) => {
        expect(await outcome(responses[i]!, chunking.cut)).toEqual(references[i]);
      },
    ),
    { numRuns },
  );
}
