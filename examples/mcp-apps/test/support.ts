/**
 * What the Chromium tests share: the page built with Vite into a temporary folder, Debian's
 * Chromium through playwright-core, and the demo started on a free port.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";

export { launchChromium } from "../../web-chat/test/support/browser.js";

const EXAMPLE_DIR = dirname(dirname(fileURLToPath(import.meta.url)));

/** `vite build` of the page into a new temporary folder (removed by `dispose`). */
export async function buildPage(): Promise<{ dir: string; dispose(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "glove-mcp-apps-ui-"));
  const { build } = await import("vite");
  await build({
    configFile: join(EXAMPLE_DIR, "ui", "vite.config.ts"),
    build: { outDir: dir, emptyOutDir: true },
    logLevel: "warn",
  });
  return { dir, dispose: () => rm(dir, { recursive: true, force: true }) };
}

export async function send(page: Page, text: string): Promise<void> {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send", exact: true }).click();
}

/** The app frames of the page, in order. */
export const appFrames = (page: Page) => page.locator('iframe[data-glove-role="mcp-app"]');
