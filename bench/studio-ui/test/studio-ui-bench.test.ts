import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser } from "playwright-core";
import { startStudio, type RunningStudio } from "glove-studio";
import { measureList } from "../measure.js";
import { seededStorage } from "../seed-catalog.js";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";

// Runs the studio list bench at a tiny size in Chromium: the figures are well-formed and the list
// stays virtualised (never timing thresholds).
describe("studio-ui bench (tiny, in Chromium)", () => {
  let dir: string;
  let browser: Browser;
  let studio: RunningStudio;
  let seeded: ReturnType<typeof seededStorage>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "glove-bench-studio-test-"));
    const { build } = await import("vite");
    await build({
      configFile: fileURLToPath(new URL("../../../packages/glove-studio/ui/vite.config.ts", import.meta.url)),
      build: { outDir: join(dir, "ui"), emptyOutDir: true },
      logLevel: "warn",
    });
    seeded = seededStorage(dir, 450);
    studio = await startStudio({ storage: seeded.storage, port: 0, uiDir: join(dir, "ui") });
    browser = await chromium.launch({
      executablePath: process.env.GLOVE_CHROMIUM ?? "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu"],
    });
  }, SLOW_WORK_MS);
  afterAll(async () => {
    await browser?.close();
    await studio?.close();
    seeded?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("loads page after page, keeping only a screenful of rows in the DOM", async () => {
    const sample = await measureList(browser, studio.url, 450, 3);
    expect(sample.pages).toHaveLength(3);
    expect(sample.loadedRows).toBe(400);
    expect(sample.domRows).toBeLessThan(60);
    for (const cost of sample.pages) {
      for (const value of [cost.wallMs, cost.taskMs, cost.scriptMs]) {
        expect(Number.isFinite(value)).toBe(true);
        expect(value).toBeGreaterThanOrEqual(0);
      }
    }
  });
});
