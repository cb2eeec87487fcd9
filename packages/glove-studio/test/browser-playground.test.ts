/**
 * The mounted playground in Chromium, as an admin on alice's conversation: a message sent from the
 * page streams through the live page, regenerate and edit make branches that the page switches
 * between, a fork on a variant opens side by side with its original, and every action shows in the
 * audit panel. alice, not allowed, never gets the page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { memoryStorage } from "glove-server";
import { ScriptedModel } from "glove-core/testing";
import { createStudio } from "glove-studio";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";
import { startApp, type SeededApp } from "./support/seeded-app.js";
import { Gate, HOSTILE, STREAMED } from "./support/studio-agent.js";
import { buildStudioUi, launchChromium, saveScreenshot, watchPage } from "./support/studio-browser.js";
import { rmSync } from "node:fs";

let uiDir: string;
let app: SeededApp;
let browser: Browser;
let admin: BrowserContext;

beforeAll(async () => {
  uiDir = await buildStudioUi();
  const terse = () => new ScriptedModel([], { fallback: () => ({ text: "Terse." }) });
  app = await startApp(memoryStorage(), {
    extensions: [
      createStudio({
        allow: (p) => p.id === "admin",
        uiDir,
        variants: { "assistant-terse": { agent: "assistant", override: { model: terse } } },
      }),
    ],
  });
  browser = await launchChromium();
  admin = await browser.newContext({
    extraHTTPHeaders: { authorization: "Bearer admin" },
    viewport: { width: 1400, height: 900 },
  });
}, SLOW_WORK_MS);
afterAll(async () => {
  app?.gate.current.open();
  await browser?.close();
  await app?.close();
  if (uiDir) rmSync(uiDir, { recursive: true, force: true });
});

const texts = async (id: string) =>
  ((await app.api(`/conversations/${id}`)).body.messages as Array<{ text: string }>).map((m) => m.text);
const timeline = (page: Page) => page.getByTestId("timeline").innerText();
const idle = async (page: Page) => expect.poll(() => page.getByTestId("live").count()).toBe(0);

describe("the mounted playground in Chromium", () => {
  it("sends, regenerates, edits and switches branches on another user's conversation, audited", async () => {
    const id = await app.converse("alice", "assistant", ["hello there"]);
    const page = await admin.newPage();
    const { errors } = watchPage(page);
    await page.goto(`${app.url}/studio/#/c/${id}`);
    await expect.poll(() => timeline(page)).toContain("You said: hello there");

    // Sent from the page, the turn streams through the page's live events.
    app.gate.current = new Gate();
    await page.getByTestId("composer").fill("stream it please");
    await page.getByTestId("send").click();
    await expect.poll(() => page.getByTestId("streaming").innerText()).toContain(STREAMED.before);
    app.gate.current.open();
    await expect.poll(() => timeline(page)).toContain(STREAMED.before + STREAMED.after);
    await idle(page);
    expect(await texts(id)).toEqual([
      "hello there",
      "You said: hello there",
      "stream it please",
      STREAMED.before + STREAMED.after,
    ]);

    // Hostile text is sent and shown as text.
    await page.getByTestId("composer").fill(HOSTILE);
    await page.getByTestId("send").click();
    await expect.poll(() => timeline(page)).toContain(`You said: ${HOSTILE}`);
    await idle(page);
    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();

    await page.getByTestId("regenerate").click();
    await expect.poll(() => page.getByTestId("switch-branch").count()).toBe(1);
    await idle(page);

    // Edit the first message: the rest stays on its branch.
    await page.getByTestId("edit-message").first().click();
    await expect.poll(() => page.getByTestId("composer").inputValue()).toBe("hello there");
    await page.getByTestId("composer").fill("edited hello");
    await page.getByRole("button", { name: "Save edit and run" }).click();
    await expect.poll(() => texts(id)).toEqual(["edited hello", "You said: edited hello"]);
    await expect.poll(() => timeline(page)).toContain("You said: edited hello");
    await idle(page);

    // Back to the branch the edit set aside.
    const before = await page.getByTestId("switch-branch").count();
    expect(before).toBeGreaterThan(1);
    await page.getByTestId("switch-branch").filter({ hasText: "after message 0" }).first().click();
    await expect.poll(async () => (await texts(id))[0]).toBe("hello there");
    await expect.poll(() => timeline(page)).toContain("You said: hello there");

    await expect
      .poll(async () => (await page.getByTestId("audit-entry").allInnerTexts()).map((t) => t.split(" · ")[1]))
      .toEqual([
        "admin switched branch",
        "admin edited a message",
        "admin regenerated",
        "admin sent a message",
        "admin sent a message",
      ]);
    await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
    await saveScreenshot(page, "playground");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("forks from a message onto a variant and compares the two side by side", async () => {
    const id = await app.converse("alice", "assistant", ["weather Lisbon", "and now?"]);
    const page = await admin.newPage();
    const { errors } = watchPage(page);
    await page.goto(`${app.url}/studio/#/c/${id}`);
    await expect.poll(() => timeline(page)).toContain("It is sunny in Lisbon.");
    // Fork after the weather answer (message 3 of 6), on the terse variant.
    await page.getByTestId("fork-here").nth(2).click();
    await page.getByTestId("fork-variant").selectOption("assistant-terse");
    await page.getByTestId("fork-confirm").click();
    await expect.poll(() => page.getByTestId("compare-column").count()).toBe(2);
    await expect.poll(() => page.getByTestId("compare-summary").innerText()).toBe("The same first 4 messages.");
    const forkId = decodeURIComponent(new URL(page.url()).hash.split("/").at(-1)!);
    expect((await app.api(`/conversations/${forkId}`, { user: "admin" })).status).toBe(200);
    expect((await app.api(`/conversations/${forkId}`, { user: "alice" })).status).toBe(404);

    // The fork runs on the variant; the compare view follows it live.
    await app.api(`/conversations/${forkId}/messages`, { user: "admin", body: { text: "again?" } });
    await expect.poll(() => page.getByTestId("compare-column").nth(1).innerText()).toContain("Terse.");
    await expect
      .poll(() => page.getByTestId("compare-summary").innerText())
      .toBe("The same up to message 4; message 5 differs.");
    expect(await page.getByTestId("compare-column").nth(1).innerText()).toContain("assistant-terse · admin");
    // A fork is titled by its first message, as its original was.
    expect(await page.getByTestId("compare-column").nth(1).locator("h3").innerText()).toBe("Fork: weather Lisbon");
    await saveScreenshot(page, "compare");

    await page.goto(`${app.url}/studio/#/c/${id}`);
    await expect
      .poll(() => page.getByTestId("audit-entry").first().innerText())
      .toContain(`admin forked into ${forkId}`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("gives a user without allow no page and no action", async () => {
    const id = await app.converse("alice", "assistant", ["mine"]);
    const alice = await browser.newContext({ extraHTTPHeaders: { authorization: "Bearer alice" } });
    const page = await alice.newPage();
    const response = await page.goto(`${app.url}/studio/#/c/${id}`);
    expect(response?.status()).toBe(403);
    expect(await page.getByTestId("playground").count()).toBe(0);
    const posted = await page.request.post(`${app.url}/studio/api/conversations/${id}/messages`, {
      data: { text: "sneaky" },
    });
    expect(posted.status()).toBe(403);
    expect(await texts(id)).toEqual(["mine", "You said: mine"]);
    await alice.close();
  });
});
