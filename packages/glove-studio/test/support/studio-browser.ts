/** Chromium on the studio's pages: the UI built once per test file, the browser launched like the web demo's tests. */
import { mkdtempSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";

import { SCREENSHOTS_DIR } from "../../../../examples/web-chat/test/support/browser.js";
import { decodePng, pixelDifference } from "../../../../examples/web-chat/test/support/png.js";

export { launchChromium } from "../../../../examples/web-chat/test/support/browser.js";

const CONFIG = fileURLToPath(new URL("../../ui/vite.config.ts", import.meta.url));

/** `vite build` of the studio's UI into a fresh folder (tests never depend on an earlier build). */
export async function buildStudioUi(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), "glove-studio-ui-"));
  const { build } = await import("vite");
  await build({ configFile: CONFIG, build: { outDir, emptyOutDir: true }, logLevel: "warn" });
  return outDir;
}

/** Uncaught page errors and CSP violations, collected for the test to check. */
export function watchPage(page: Page): { errors: string[] } {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  return { errors };
}

/**
 * Saves docs/screenshots/studio-<name>.png when the picture changed beyond what new ids, times
 * and durations change (a few per cent of the pixels), so a test run leaves the docs alone.
 */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  const png = await page.screenshot({ animations: "disabled", caret: "hide" });
  const path = join(SCREENSHOTS_DIR, `studio-${name}.png`);
  const existing = await readFile(path).catch(() => undefined);
  if (existing && pixelDifference(decodePng(existing), decodePng(png)) < 0.03) return;
  await mkdir(SCREENSHOTS_DIR, { recursive: true });
  await writeFile(path, png);
}
