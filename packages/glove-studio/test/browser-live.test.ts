/**
 * The standalone studio follows what an app writes to the same SQLite file, in Chromium: a
 * conversation page opened before its turn shows the turn's messages without a reload, and the
 * list shows a conversation started after it opened.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ServerStorage } from "glove-server";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../test-support/timeouts.js";
import { startApp, type SeededApp } from "./support/seeded-app.js";
import { sqliteKind } from "./support/storages.js";
import { studioInChromium, type StudioInChromium } from "./support/studio-in-chromium.js";
import { watchPage } from "./support/studio-browser.js";

let place: Awaited<ReturnType<typeof sqliteKind.create>>;
let app: SeededApp;
let reader: ServerStorage;
let shown: StudioInChromium;

beforeAll(async () => {
  place = await sqliteKind.create();
  app = await startApp(place.open());
  await app.converse("alice", "assistant", ["hello there"]);
  reader = place.open();
  shown = await studioInChromium(reader, "SQLite");
}, SLOW_WORK_MS);
afterAll(async () => {
  await shown?.close();
  await app?.close();
  await reader?.close?.();
  await place?.dispose();
});

it(
  "shows a turn that started after the conversation's page opened, without a reload",
  async () => {
    const id = (await app.api("/conversations", { body: {} })).body.id as string;
    const page = await shown.browser.newPage();
    const { errors } = watchPage(page);
    await page.goto(`${shown.studio.url}#/c/${id}`);
    await expect.poll(() => page.getByTestId("conversation-title").innerText()).toBe("(untitled)");
    expect(await page.getByTestId("message").count()).toBe(0);
    const sent = await app.api(`/conversations/${id}/messages`, { body: { text: "weather Lisbon" } });
    expect(sent.status).toBe(202);
    await app.waitIdle(id, "alice");
    // Read again every 2 s: a generous bound, not a timing claim.
    await expect
      .poll(() => page.getByTestId("timeline").innerText(), { timeout: PROMPT_WAIT_MS })
      .toContain("It is sunny in Lisbon.");
    expect(await page.getByTestId("tool-call").innerText()).toContain("get_weather");
    await expect.poll(() => page.getByTestId("conversation-title").innerText()).toBe("weather Lisbon");
    expect(errors).toEqual([]);
  },
  SLOW_WORK_MS,
);

it(
  "lists a conversation started after the list opened, without a reload",
  async () => {
    const page = await shown.browser.newPage();
    const { errors } = watchPage(page);
    await page.goto(shown.studio.url);
    const rows = page.getByTestId("conversation-row");
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(1);
    const before = await rows.count();
    await app.converse("bob", "researcher", ["a brand new question"]);
    await expect.poll(() => rows.count(), { timeout: PROMPT_WAIT_MS }).toBe(before + 1);
    expect(await rows.first().innerText()).toContain("a brand new question");
    expect(errors).toEqual([]);
  },
  SLOW_WORK_MS,
);
