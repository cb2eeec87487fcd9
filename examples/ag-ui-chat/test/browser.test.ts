/**
 * The assistant-ui page (its AG-UI runtime, @assistant-ui/react-ag-ui) in Debian's Chromium,
 * against glove-server's AG-UI route: an answer streams into the thread word by word, and the
 * bistro's booking goes through Glove's questions as AG-UI interrupts — the reservation form, then
 * the permission prompt, allowed on the page — until the table is booked on the server.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { WebChat } from "glove-example-web-chat";
import { launchChromium } from "../../web-chat/test/support/browser.js";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../test-support/timeouts.js";
import { startAgUiChat } from "../src/app.js";
import { validated } from "../../../packages/glove-server/test/interop/ag-ui/support/ag-ui-client.js";

const EXAMPLE_DIR = join(import.meta.dirname, "..");
let dataDir: string;
let chat: WebChat;
let browser: Browser;
const pageErrors: string[] = [];
/** The AG-UI streams the page read, each checked against @ag-ui/core 1.0's schemas in afterAll. */
const streams: Array<Promise<string>> = [];

async function buildPage(outDir: string): Promise<void> {
  const { build } = await import("vite");
  await build({
    configFile: join(EXAMPLE_DIR, "ui", "vite.config.ts"),
    build: { outDir, emptyOutDir: true, sourcemap: false },
    logLevel: "warn",
  });
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "glove-ag-ui-chat-"));
  const uiDir = join(dataDir, "ui");
  [, browser] = await Promise.all([buildPage(uiDir), launchChromium()]);
  // The offline walkthrough (no key in env), its words 30 ms apart so streaming can be seen.
  chat = await startAgUiChat({ port: 0, dataDir, uiDir, env: {}, offlineDelayMs: 30 });
}, SLOW_WORK_MS);

afterAll(async () => {
  const events = (await Promise.all(streams)).flatMap((text) =>
    [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]!) as unknown),
  );
  expect(events.length).toBeGreaterThan(20);
  for (const event of events) validated(event);
  await browser?.close();
  await chat?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, SLOW_WORK_MS);

async function openPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  context.setDefaultTimeout(PROMPT_WAIT_MS);
  const page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("response", (response) => {
    if (new URL(response.url()).pathname === "/api/ag-ui") streams.push(response.text());
  });
  await page.goto(chat.url);
  return page;
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel("Message").fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

/** The thread's active branch and branch points, read with the page's own session (its cookie). */
async function branchesOf(
  page: Page,
  threadId: string,
): Promise<{ messages: Array<{ text: string }>; points: unknown[] }> {
  return (await (await page.request.get(`${chat.url}/api/conversations/${threadId}/branches`)).json()) as {
    messages: Array<{ text: string }>;
    points: unknown[];
  };
}

/** Polls until the assertion holds, for as long as a loaded machine may need (never a tight timeout). */
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: PROMPT_WAIT_MS, interval: 20 });

const lastAssistant = (page: Page) => page.locator('[data-role="assistant"]').last();
/** The last answer's text and tool lines, without its buttons. */
const lastAnswer = (page: Page) => lastAssistant(page).locator(".content");

describe("assistant-ui on glove-server's AG-UI route", () => {
  it("streams the agent's answer into the thread", async () => {
    const page = await openPage();
    await send(page, "Hello");
    await poll(() => page.locator('[data-role="user"] .content').innerText()).toBe("Hello");
    // Seen while it grows: the text arrives in pieces, not at once.
    const lengths = new Set<number>();
    await expect
      .poll(
        async () => {
          const text = (await lastAssistant(page).count()) > 0 ? await lastAnswer(page).innerText() : "";
          lengths.add(text.length);
          return text;
        },
        { interval: 10, timeout: PROMPT_WAIT_MS },
      )
      .toMatch(/for the inbox\.$/);
    expect([...lengths].filter((n) => n > 0).length).toBeGreaterThan(2);
    expect(await lastAnswer(page).innerText()).toMatch(/^Hello! I'm the Glove Bistro assistant/);
    expect(pageErrors).toEqual([]);
  });

  it("assistant-ui's Regenerate and Edit are a regenerate and an edit on the server: the old answers stay as branches", async () => {
    const page = await openPage();
    let threadId = "";
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/ag-ui")
        threadId = (request.postDataJSON() as { threadId: string }).threadId;
    });
    await send(page, "Hi there");
    await poll(() => lastAnswer(page).innerText()).toMatch(/for the inbox\.$/);
    await lastAssistant(page).getByRole("button", { name: "Regenerate" }).click();
    await poll(() => lastAssistant(page).getByLabel("Branches").innerText()).toMatch(/2\s*\/\s*2/);
    await poll(() => lastAnswer(page).innerText()).toMatch(/for the inbox\.$/);
    // The thread's branches, from the native route: the first answer set aside, the new one active.
    await poll(async () => (await branchesOf(page, threadId)).points.length).toBe(1);
    const branches = await branchesOf(page, threadId);
    expect(branches.messages.map((m) => m.text.slice(0, 6))).toEqual(["Hi the", "Hello!"]);

    // Edit is an edit on the server: the thread goes on from the new text, the old exchange on its branch.
    await page.locator('[data-role="user"]').getByRole("button", { name: "Edit" }).click();
    await page.getByLabel("Edit message").fill("What's on the menu?");
    await page.getByRole("button", { name: "Save" }).click();
    await poll(() => lastAnswer(page).innerText()).toContain("Anything catch your eye?");
    // The page shows the words as they stream; the server stores the answer when its turn ends.
    await poll(async () => (await branchesOf(page, threadId)).messages.at(-1)?.text).toContain(
      "Anything catch your eye?",
    );
    const edited = await branchesOf(page, threadId);
    expect(edited.messages[0]?.text).toBe("What's on the menu?");
    expect(edited.points.length).toBeGreaterThanOrEqual(1);
    expect(pageErrors).toEqual([]);
  });

  it("answers Glove's questions on the page: the reservation form, then the permission prompt", async () => {
    const page = await openPage();
    await send(page, "Book a table for two");
    const form = page.getByRole("form", { name: "Reservation" });
    await form.getByLabel("Name").fill("Ada");
    await form.getByLabel("Time").fill("20:00");
    await form.getByRole("button", { name: "Reserve" }).click();

    const prompt = page.getByRole("dialog", { name: "Permission" });
    await poll(() => prompt.innerText()).toContain("Allow book_table to run?");
    expect(await prompt.innerText()).toContain('"name": "Ada"');
    expect(chat.bookings.size).toBe(0);
    await prompt.getByRole("button", { name: "Allow" }).click();

    await poll(() => page.locator('[data-role="assistant"]').allInnerTexts()).toContainEqual(
      expect.stringContaining("See you soon!"),
    );
    expect([...chat.bookings.values()]).toEqual([expect.objectContaining({ name: "Ada", guests: 2, time: "20:00" })]);
    await poll(() => prompt.count()).toBe(0);
    // The whole booking, each message once and every call with its result, as the server has it.
    await poll(() => lastAnswer(page).innerText()).toBe("All three tasks are done.");
    const answers = await page.locator('[data-role="assistant"]').allInnerTexts();
    expect(answers.filter((text) => text.includes("Booking it now")).length).toBe(1);
    const calls = await page.locator(".tool").allInnerTexts();
    expect(calls.map((line) => line.split(" ")[0])).toEqual([
      "glove_update_tasks",
      "show_menu",
      "reservation_form",
      "glove_update_tasks",
      "book_table",
      "glove_update_tasks",
    ]);
    expect(calls.filter((line) => !line.endsWith("✓"))).toEqual([]);
    if (process.env.AG_UI_CHAT_SCREENSHOT) await page.screenshot({ path: process.env.AG_UI_CHAT_SCREENSHOT });
    expect(pageErrors).toEqual([]);
  });
});
