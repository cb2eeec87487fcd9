import { existsSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Starts the test files that took longest in a recorded run first (`test-durations.json` at the
 * root, written by `node test-support/vitest/record-durations.mjs <json report>`), so that with
 * several workers the run does not end waiting on one long file started last. Files not recorded
 * yet go by size, after the recorded ones that took longer than a typical file. Vitest's own
 * order does this only with the cache of an earlier run on the same machine, which a fresh clone
 * (CI) does not have.
 */
export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const recorded = readDurations(join(root, "test-durations.json"));
    // An unrecorded file is guessed at a small file's duration per KiB of source.
    const guess = (file: string) => Math.min(5_000, (statSync(file, { throwIfNoEntry: false })?.size ?? 0) / 4);
    const duration = (spec: TestSpecification) => recorded.get(relative(root, spec.moduleId)) ?? guess(spec.moduleId);
    return [...files].sort((a, b) => duration(b) - duration(a));
  }
}

function readDurations(path: string): Map<string, number> {
  if (!existsSync(path)) return new Map();
  const parsed = JSON.parse(readFileSync(path, "utf8")) as { files: Record<string, number> };
  return new Map(Object.entries(parsed.files));
}
