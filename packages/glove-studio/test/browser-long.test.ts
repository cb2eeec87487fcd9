/**
 * A long conversation in Chromium: the timeline loads 200 messages and appends a page per
 * "Show more", past the inspector's largest page (500), to the last message.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import type { Message } from "glove-core";
import type { ServerStorage } from "glove-server";
import { startStudio, type RunningStudio } from "glove-studio";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";
import { sqliteKind } from "./support/storages.js";
import { buildStudioUi, launchChromium, watchPage } from "./support/studio-browser.js";

const COUNT = 1250;
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

it("pages through 1,250 messages with Show more", async () => {
  const page = await browser.newPage();
  const { errors } = watchPage(page);
  await page.goto(`${studio.url}#/c/${ID}`);
  const items = page.getByTestId("message");
  await expect.poll(() => items.count()).toBe(200);
  for (let loaded = 200; loaded < COUNT; loaded += 200) {
    await page.getByRole("button", { name: /^Show \d+ more of / }).click();
    await expect.poll(() => items.count()).toBe(Math.min(COUNT, loaded + 200));
  }
  expect(await items.last().innerText()).toContain(`message ${COUNT - 1}`);
  expect(await page.getByRole("button", { name: /^Show \d+ more of / }).count()).toBe(0);
  expect(await page.getByRole("alert").count()).toBe(0);
  expect(errors).toEqual([]);
});
