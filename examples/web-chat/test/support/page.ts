/** What the Chromium tests do on the demo's page: open it, send a message, find what the agent said. */
import type { BrowserContext, Locator, Page } from "playwright-core";

/** Opens the page at `url` in `context`; its uncaught errors go to `errors`. */
export async function openPage(context: BrowserContext, url: string, errors: Error[]): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (error) => errors.push(error));
  await page.goto(url);
  await page.getByTestId("connection").waitFor();
  return page;
}

export async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel("Message").fill(text);
  await page.getByRole("button", { name: "Send", exact: true }).click();
}

export const transcript = (page: Page): Locator => page.getByTestId("transcript");

/** A finished agent message (not the streaming one) containing `text`. */
export const agentSaid = (page: Page, text: string): Locator =>
  page.locator('[data-glove-role="agent"]:not([data-glove-streaming])', { hasText: text });

/** The id of the page's conversation (in its URL once it has one). */
export async function conversationOf(page: Page): Promise<string> {
  await page.waitForURL(/[?&]c=/);
  return new URL(page.url()).searchParams.get("c")!;
}
