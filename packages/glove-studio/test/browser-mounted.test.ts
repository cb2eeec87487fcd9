/**
 * The mounted studio in Chromium, signed in as an admin of the app: a question answered on the
 * page resumes the waiting turn in the server; a running turn shows live and is aborted from the
 * page; "Copy as test" shows the generated file. Without credentials the page never loads.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext } from "playwright-core";
import { sqliteStorage } from "glove-server";
import { createStudio } from "glove-studio";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";
import { startApp, type SeededApp } from "./support/seeded-app.js";
import { Gate, STREAMED } from "./support/studio-agent.js";
import { buildStudioUi, launchChromium, watchPage } from "./support/studio-browser.js";

let dir: string;
let uiDir: string;
let app: SeededApp;
let browser: Browser;
let admin: BrowserContext;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "glove-studio-mounted-ui-"));
  uiDir = await buildStudioUi();
  app = await startApp(sqliteStorage({ path: join(dir, "glove.db") }), {
    extensions: [createStudio({ allow: (p) => p.id === "admin", uiDir })],
  });
  browser = await launchChromium();
  admin = await browser.newContext({
    extraHTTPHeaders: { authorization: "Bearer admin" },
    viewport: { width: 1280, height: 800 },
  });
}, SLOW_WORK_MS);
afterAll(async () => {
  app?.gate.current.open();
  await browser?.close();
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
  if (uiDir) rmSync(uiDir, { recursive: true, force: true });
});

const messagesOf = async (id: string) =>
  ((await app.api(`/conversations/${id}`)).body.messages as Array<{ text: string }>).map((m) => m.text);

describe("mounted studio in Chromium", () => {
  it("is not shown without the server's authentication", async () => {
    const anonymous = await browser.newPage();
    const response = await anonymous.goto(`${app.url}/studio/`);
    expect(response?.status()).toBe(401);
    expect(await anonymous.content()).not.toContain("Glove Studio");
    await anonymous.close();
  });

  it("answers a waiting question from the page: the turn resumes in the server", async () => {
    const id = await app.converse("alice", "assistant", ["ask Who is coming?"]);
    const page = await admin.newPage();
    const { errors } = watchPage(page);
    await page.goto(`${app.url}/studio/#/c/${id}`);
    await expect.poll(() => page.getByTestId("source").innerText()).toContain("mounted in the server");
    const question = page.getByTestId("question");
    await expect.poll(() => question.getAttribute("data-status")).toBe("pending");
    await page.getByLabel(/^Answer to /).fill('{ "name": "Ada" }');
    await page.getByRole("button", { name: "Answer", exact: true }).click();
    await expect.poll(() => question.getAttribute("data-status")).toBe("resolved");
    await expect.poll(() => messagesOf(id)).toContain("Thanks, Ada.");
    await page.reload();
    await expect.poll(() => page.getByTestId("timeline").innerText()).toContain("Thanks, Ada.");
    expect(errors).toEqual([]);
  });

  it("shows a running turn live and aborts it from the page", async () => {
    app.gate.current = new Gate();
    const created = await app.api("/conversations", { body: {} });
    const id = created.body.id as string;
    const page = await admin.newPage();
    const { errors } = watchPage(page);
    await page.goto(`${app.url}/studio/#/c/${id}`);
    await expect.poll(() => page.getByTestId("conversation-title").innerText()).toBe("(untitled)");
    await app.api(`/conversations/${id}/messages`, { body: { text: "slow" } });
    // The page was open before the turn: it shows the turn by itself once it runs, no reload.
    await expect.poll(() => page.getByTestId("live").count()).toBe(1);
    await expect.poll(() => page.getByTestId("tool-call").innerText()).toContain("slow_job");
    expect(await page.getByTestId("tool-call").innerText()).toContain("no result yet");
    await page.getByRole("button", { name: "Abort turn" }).click();
    await expect.poll(() => page.getByTestId("live").count()).toBe(0);
    await expect.poll(() => page.getByTestId("tool-call").innerText()).toContain("aborted");
    expect((await app.api(`/conversations/${id}`)).body.busy).toBe(false);
    expect(errors).toEqual([]);
  });

  it("streams a turn's text as it comes, on a page opened before the turn started", async () => {
    app.gate.current = new Gate();
    const id = (await app.api("/conversations", { body: {} })).body.id as string;
    const page = await admin.newPage();
    const { errors } = watchPage(page);
    await page.goto(`${app.url}/studio/#/c/${id}`);
    await expect.poll(() => page.getByTestId("conversation-title").innerText()).toBe("(untitled)");
    expect(await page.getByTestId("message").count()).toBe(0);
    await app.api(`/conversations/${id}/messages`, { body: { text: "stream it please" } });
    // Mid-stream: the text so far, not stored yet; the user's message already in the timeline.
    await expect.poll(() => page.getByTestId("streaming").innerText()).toContain(STREAMED.before);
    expect(await page.getByTestId("streaming").innerText()).not.toContain(STREAMED.after);
    await expect.poll(() => page.getByTestId("timeline").innerText()).toContain("stream it please");
    await expect.poll(() => page.getByTestId("live").count()).toBe(1);
    app.gate.current.open();
    await expect.poll(() => page.getByTestId("timeline").innerText()).toContain(STREAMED.before + STREAMED.after);
    await expect.poll(() => page.getByTestId("streaming").count()).toBe(0);
    await expect.poll(() => page.getByTestId("live").count()).toBe(0);
    await expect.poll(() => page.getByTestId("conversation-title").innerText()).toBe("stream it please");
    expect(errors).toEqual([]);
  });

  it("copies a conversation as a ScriptedModel test", async () => {
    const id = await app.converse("alice", "assistant", ["weather Kyoto"]);
    const page = await admin.newPage();
    await page.goto(`${app.url}/studio/#/c/${id}`);
    await page.getByRole("button", { name: "Copy as test" }).click();
    await expect.poll(() => page.locator("details.panel pre").innerText()).toContain("new ScriptedModel(script)");
    expect(await page.locator("details.panel pre").innerText()).toContain('"It is sunny in Kyoto."');
  });
});
