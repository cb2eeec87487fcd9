/** What the Chromium tests do on the useChat page: build it, open it, send, read the parts. */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BrowserContext, Locator, Page } from "playwright-core";

const EXAMPLE_DIR = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

/** `vite build` of the example's page into `outDir`, with its own Vite config. */
export async function buildPage(outDir: string): Promise<void> {
  const { build } = await import("vite");
  await build({
    configFile: join(EXAMPLE_DIR, "ui", "vite.config.ts"),
    build: { outDir, emptyOutDir: true },
    logLevel: "warn",
  });
}

/** Opens the page (a new chat, or `?chat=<id>`) once it has its conversation; uncaught errors go to `errors`. */
export async function openChat(context: BrowserContext, url: string, errors: Error[]): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (error) => errors.push(error));
  await page.goto(url);
  await page.getByTestId("status").waitFor();
  return page;
}

export async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel("Message").fill(text);
  await page.getByRole("button", { name: "Send", exact: true }).click();
}

/** Edits the user message that says `text` to `replacement` (its Edit button, then Send). */
export async function edit(page: Page, text: string, replacement: string): Promise<void> {
  await page.locator('li[data-role="user"]', { hasText: text }).getByRole("button", { name: "Edit" }).click();
  await send(page, replacement);
}

/** The conversation behind the page: its useChat id, in the address. */
export function chatIdOf(page: Page): string {
  return new URL(page.url()).searchParams.get("chat")!;
}

export const status = (page: Page): Promise<string | null> => page.getByTestId("status").getAttribute("data-status");

/** Waits until useChat's status is `value`. */
export async function statusIs(page: Page, value: string): Promise<void> {
  await page.locator(`[data-testid="status"][data-status="${value}"]`).waitFor();
}

/** The assistant messages' text containing `text`. */
export const assistantSaid = (page: Page, text: string): Locator =>
  page.locator('li[data-role="assistant"] p', { hasText: text });

/** A tool part of `tool` in `state`. */
export const toolPart = (page: Page, tool: string, state: string): Locator =>
  page.locator(`section[data-tool="${tool}"][data-state="${state}"]`);
