import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launch, runBench, summarise } from "../../react/measure.js";
import { fullText } from "../../react/text.js";
import { buildVuePage, servePage, type PageServer } from "../page-server.js";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";

// Runs the Vue bench at a tiny size in Chromium: both chats end with the same DOM, and the figures
// are well-formed (never timing thresholds). Fails, never skips, without Chromium.
describe("vue bench (tiny, in Chromium)", () => {
  let dir: string;
  let server: PageServer;
  let browser: Browser;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "glove-bench-vue-test-"));
    [, browser] = await Promise.all([buildVuePage(dir), launch()]);
    server = await servePage(dir);
  }, SLOW_WORK_MS);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(
    "streams the same tokens into the same timeline with both chats and reports finite numbers",
    async () => {
      const options = { tokens: 120, entries: 20, reps: 2, warmup: 0 };
      const samples = await runBench(browser, server.url, options);
      expect(samples.map((s) => s.kind)).toEqual(["glove", "plain", "plain", "glove"]);
      for (const s of samples) {
        expect(s).toMatchObject({ tokens: 120, entries: 20 });
        expect(s.answerChars).toBe(fullText(120).length);
        expect(s.elements).toBe(22);
        expect(s.commits).toBeGreaterThan(0);
        for (const value of [s.wallMs, s.taskMs, s.scriptMs, s.longTaskMs]) {
          expect(Number.isFinite(value)).toBe(true);
          expect(value).toBeGreaterThanOrEqual(0);
        }
        expect(s.longTaskSpans).toHaveLength(s.longTasks);
      }
      // The hand-written chat updates the DOM once per token (plus the question and the answer).
      for (const s of samples.filter((x) => x.kind === "plain")) {
        expect(s.commits).toBeGreaterThanOrEqual(120);
        expect(s.commits).toBeLessThanOrEqual(120 + 2);
      }
      const summary = summarise(samples);
      expect(Number.isFinite(summary.glove.taskMs / summary.plain.taskMs)).toBe(true);
    },
    SLOW_WORK_MS,
  );
});
