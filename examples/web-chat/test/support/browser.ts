/**
 * What the browser tests share: building the UI with Vite, launching Debian's Chromium through
 * playwright-core (no browser download), counting text on the page.
 */
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Locator } from "playwright-core";
import { afterAll, afterEach, expect } from "vitest";
import { SLOW_WORK_MS } from "../../../../test-support/timeouts.js";

export const EXAMPLE_DIR = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
export const REPO_ROOT = join(EXAMPLE_DIR, "..", "..");
export const SCREENSHOTS_DIR = join(REPO_ROOT, "docs", "screenshots");

/** Debian's Chromium (its version matches playwright-core 1.64's); GLOVE_CHROMIUM overrides. */
export const CHROMIUM = process.env.GLOVE_CHROMIUM ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Chromium with a fresh profile (playwright-core gives every launch its own temporary
 * user-data-dir and removes it on close). Fails loudly when Chromium is missing: the browser
 * tests must never be skipped silently (`.ci/run` installs it).
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}. Install Debian's package (apt-get install chromium; .ci/run does) or set GLOVE_CHROMIUM to a Chromium 156 binary.`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/**
 * `vite build` of a page into `outDir` with its own Vite config: examples/web-chat/ui unless `root`
 * names another example's ui folder; `base` when the page is served below a path (source maps on request).
 */
export async function buildUi(
  outDir: string,
  options: { sourcemap?: boolean; base?: string; root?: string } = {},
): Promise<void> {
  const { build } = await import("vite");
  await build({
    configFile: join(options.root ?? join(EXAMPLE_DIR, "ui"), "vite.config.ts"),
    ...(options.base ? { base: options.base } : {}),
    build: { outDir, emptyOutDir: true, sourcemap: options.sourcemap ?? false },
    logLevel: "warn",
  });
}

/** How many times `text` occurs in the element's text. */
export async function occurrences(locator: Locator, text: string): Promise<number> {
  const all = await locator.innerText();
  return all.split(text).length - 1;
}

/**
 * The hooks a browser test file registers: after each test, no page threw (`errors` collects the
 * pages' uncaught errors); after all of them, `close` (the browser, the server), then the
 * temporary folder `dir()` names is removed.
 */
export function browserTestHooks(errors: Error[], close: () => Promise<void>, dir: () => string | undefined): void {
  afterEach(() => {
    expect(errors.splice(0).map((e) => e.message)).toEqual([]);
  });
  afterAll(async () => {
    await close();
    const folder = dir();
    if (folder) await rm(folder, { recursive: true, force: true });
  }, SLOW_WORK_MS);
}
