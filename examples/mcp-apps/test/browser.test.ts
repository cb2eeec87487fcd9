/**
 * The published MCP Apps servers in Chromium, through the whole stack: glove-mcp bridges them
 * into a glove-server agent (server-basic-react over stdio, server-budget-allocator over HTTP),
 * the app slot travels over SSE, glove-react renders it in a sandboxed iframe with the host
 * bridge. The app receives its tool's input and result, calls its server's tool through the
 * permission prompt, sends a message into the conversation, is sized by the host, and is there
 * again after a reload.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../test-support/timeouts.js";
import { startAppServerHttp, stdioAppEntry } from "../../../packages/glove-mcp/test/apps/app-servers.js";
import type { RunningServer } from "../../../packages/glove-mcp/test/support/servers.js";
import { startMcpAppsDemo, type McpAppsDemo } from "../src/app.js";
import { appFrames, buildPage, launchChromium, send } from "./support.js";

let page: { dir: string; dispose(): Promise<void> };
let budgetHttp: RunningServer;
let demo: McpAppsDemo;
let browser: Browser;
const errors: Error[] = [];

beforeAll(async () => {
  page = await buildPage();
  budgetHttp = await startAppServerHttp("server-budget-allocator");
  demo = await startMcpAppsDemo({
    port: 0,
    dataDir: mkdtempSync(join(tmpdir(), "glove-mcp-apps-")), // not ./.glove of the repository
    uiDir: page.dir,
    servers: [
      stdioAppEntry("server-basic-react", "basic"),
      { id: "budget", name: "Budget allocator", description: "budgets", url: budgetHttp.url },
    ],
  });
  browser = await launchChromium();
}, SLOW_WORK_MS);

afterAll(async () => {
  await browser?.close();
  await demo?.close();
  await budgetHttp?.stop();
  await page?.dispose();
});

async function open(): Promise<Page> {
  const tab = await browser.newPage();
  tab.setDefaultTimeout(PROMPT_WAIT_MS);
  tab.on("pageerror", (error) => errors.push(error));
  await tab.goto(demo.url);
  return tab;
}

/** The pending permission prompt of the page (one at a time in these tests). */
const promptOf = (tab: Page) => tab.locator('[data-glove-role="permission-request"][data-glove-status="pending"]');

/** Waits for the permission prompt and answers it. */
async function answerPrompt(tab: Page, button: "Allow" | "Deny", tool: string): Promise<void> {
  const prompt = promptOf(tab);
  await expect.poll(() => prompt.count(), { timeout: PROMPT_WAIT_MS }).toBe(1);
  expect(await prompt.textContent()).toContain(tool);
  await prompt.getByRole("button", { name: button }).click();
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/;

describe("MCP Apps in Chromium", () => {
  // Known flake, also at the last round's commit (1 run in 4-5 on a loaded 2-core machine): now and
  // then the published app's content has no layout inside its frame (its "Get Server Time" button is
  // in the DOM, computed visible, with a 0 × 0 box), so the click waits out its timeout. One of its
  // causes is fixed (a size report of 0 collapsed the frame for good, host-bridge.ts); the rest is
  // not understood yet. A retry re-runs the whole flow in a new tab; a second failure still fails.
  it(
    "server-basic-react (stdio): renders with its result, calls get-time through the prompt, sends a message, survives a reload",
    { retry: 1 },
    async () => {
      const tab = await open();
      await send(tab, "What is the time?");
      // The model's call of get-time is gated like any tool that is not read-only.
      await answerPrompt(tab, "Allow", "basic__get-time");
      await expect.poll(() => appFrames(tab).count(), { timeout: PROMPT_WAIT_MS }).toBe(1);
      const frame = tab.frameLocator('iframe[data-glove-role="mcp-app"]');
      const time = frame.locator("code").first();
      await expect.poll(async () => (await time.textContent()) ?? "", { timeout: PROMPT_WAIT_MS }).toMatch(ISO_TIME);
      const first = (await time.textContent())!;
      // The host sized the frame from the app's size-changed (not the 160 px it starts at).
      await expect
        .poll(async () => (await appFrames(tab).first().boundingBox())?.height ?? 0, { timeout: PROMPT_WAIT_MS })
        .not.toBe(160);

      // The app's own call of get-time meets the conversation's permission prompt.
      await frame.getByRole("button", { name: "Get Server Time" }).click();
      await answerPrompt(tab, "Allow", "basic__get-time");
      await expect.poll(async () => (await time.textContent()) ?? "", { timeout: PROMPT_WAIT_MS }).not.toBe(first);
      expect(await time.textContent()).toMatch(ISO_TIME);

      // Declined: the server is not called and the app is told (server-basic-react shows [ERROR]).
      await frame.getByRole("button", { name: "Get Server Time" }).click();
      await answerPrompt(tab, "Deny", "basic__get-time");
      await expect.poll(async () => (await time.textContent()) ?? "", { timeout: PROMPT_WAIT_MS }).toBe("[ERROR]");

      // ui/message: the app's text becomes the user's message, and the agent answers it.
      await frame.locator("textarea").fill("Hello from inside the app");
      await frame.getByRole("button", { name: "Send Message" }).click();
      await expect
        .poll(() => tab.locator('[data-glove-role="user"]', { hasText: "Hello from inside the app" }).count(), {
          timeout: PROMPT_WAIT_MS,
        })
        .toBe(1);

      // After a reload the slot comes back from the conversation's snapshot, with the same result.
      await tab.reload();
      await expect.poll(() => appFrames(tab).count(), { timeout: PROMPT_WAIT_MS }).toBe(1);
      const again = tab.frameLocator('iframe[data-glove-role="mcp-app"]').locator("code").first();
      await expect.poll(async () => (await again.textContent()) ?? "", { timeout: PROMPT_WAIT_MS }).toBe(first);
      await tab.close();
    },
  );

  it("server-budget-allocator (HTTP): renders its app from the structured result", async () => {
    const tab = await open();
    await send(tab, "Show me the budget");
    await answerPrompt(tab, "Allow", "budget__get-budget-data");
    await expect.poll(() => appFrames(tab).count(), { timeout: PROMPT_WAIT_MS }).toBe(1);
    const frame = tab.frameLocator('iframe[data-glove-role="mcp-app"]');
    await expect
      .poll(async () => (await frame.locator("body").textContent()) ?? "", { timeout: PROMPT_WAIT_MS })
      .toContain("Marketing");
    await tab.close();
  });

  it("the page threw nothing", () => {
    expect(errors).toEqual([]);
  });
});
