/**
 * A long conversation in Chromium: the timeline renders a window of rows however many messages
 * there are (2,000 here), loads the pages it shows, jumps to the end and follows what is appended
 * there, and finds a message the browser's own find could not see (it is not in the page until shown).
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import type { Message } from "glove-core";
import type { ServerStorage } from "glove-server";
import { startStudio, type RunningStudio } from "glove-studio";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../test-support/timeouts.js";
import { sqliteKind } from "./support/storages.js";
import { buildStudioUi, launchChromium, watchPage } from "./support/studio-browser.js";

const COUNT = 2000;
/** Far fewer rows than messages: what a screen holds and a few around it. */
const MAX_ROWS = 60;
const ID = "5f0c9d1e-0000-4000-8000-000000000001";
let place: Awaited<ReturnType<typeof sqliteKind.create>>;
let storage: ServerStorage;
let studio: RunningStudio;
let browser: Browser;
let uiDir: string;

beforeAll(async () => {
  place = await sqliteKind.create();
  storage = place.open();
  const now = new Date().toISOString();
  await storage.catalog.create({
    id: ID,
    owner: "alice",
    agent: "assistant",
    title: "a long one",
    createdAt: now,
    updatedAt: now,
    eventIdsReserved: 0,
    runningTurnId: null,
    lastClientMessageId: null,
    lastTurnId: null,
  });
  const messages: Message[] = Array.from({ length: COUNT }, (_, i) => ({
    sender: i % 2 ? "agent" : "user",
    text: `message ${i}`,
  }));
  await (await storage.store(ID)).appendMessages(messages);
  uiDir = await buildStudioUi();
  studio = await startStudio({ storage, port: 0, uiDir });
  browser = await launchChromium();
}, SLOW_WORK_MS);
afterAll(async () => {
  await browser?.close();
  await studio?.close();
  await storage?.close?.();
  await place?.dispose();
  if (uiDir) rmSync(uiDir, { recursive: true, force: true });
});

it(
  "keeps the rows of 2,000 messages bounded, jumps to the end and finds any message",
  async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const { errors } = watchPage(page);
    await page.goto(`${studio.url}#/c/${ID}`);
    const rows = page.getByTestId("message");
    await expect.poll(() => rows.first().innerText()).toContain("message 0");
    expect(await rows.count()).toBeLessThan(MAX_ROWS);
    expect(await page.getByTestId("timeline").innerText()).not.toContain(`message ${COUNT - 1}`);

    await page.getByRole("button", { name: "Jump to the end" }).click();
    await expect.poll(() => page.getByTestId("timeline").innerText()).toContain(`message ${COUNT - 1}`);
    // The last message is in view, at the bottom of the timeline's box.
    const last = page.locator(`[data-testid="message"]`, { hasText: `message ${COUNT - 1}` });
    const box = await page.getByTestId("timeline-scroller").boundingBox();
    const row = await last.boundingBox();
    expect(row!.y + row!.height).toBeLessThanOrEqual(box!.y + box!.height + 1);
    expect(row!.y).toBeGreaterThanOrEqual(box!.y);
    expect(await rows.count()).toBeLessThan(MAX_ROWS);

    // At the end, the view follows what the app appends (the standalone page reads again every 2 s).
    await (await storage.store(ID)).appendMessages([{ sender: "user", text: "one more message" }]);
    await expect
      .poll(() => page.getByTestId("timeline").innerText(), { timeout: PROMPT_WAIT_MS })
      .toContain("one more message");
    const appended = await page.locator('[data-testid="message"]', { hasText: "one more message" }).boundingBox();
    expect(appended!.y + appended!.height).toBeLessThanOrEqual(box!.y + box!.height + 1);

    await page.getByRole("searchbox", { name: "Find in conversation" }).fill("message 1234");
    await page.getByRole("button", { name: "Find", exact: true }).click();
    await expect.poll(() => page.getByTestId("find-count").innerText()).toBe("1 of 1");
    await expect
      .poll(() => page.locator('[data-testid="message"][aria-current="true"]').innerText())
      .toContain("message 1234");
    expect(await rows.count()).toBeLessThan(MAX_ROWS);
    expect(await page.getByRole("alert").count()).toBe(0);
    expect(errors).toEqual([]);
  },
  SLOW_WORK_MS,
);
