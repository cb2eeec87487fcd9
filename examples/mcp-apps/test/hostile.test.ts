/**
 * Hostile app content cannot reach the page: the sandbox (no same origin: no parent document,
 * cookies or storage; no top navigation, no popups), the CSP (no fetch to the page's origin), the
 * host's rules (no model-only tools), and the bridge's source and origin checks (tool calls posted
 * by another frame or by a page script are ignored: no prompt, no call).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { PromptRequest } from "glove-core";
import { ScriptedModel, type ScriptedTurn } from "glove-core/testing";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../test-support/timeouts.js";
import { startSdkHttpServer, type SdkHttpServer } from "../../../packages/glove-mcp/test/support/sdk-http-server.js";
import { startMcpAppsDemo, type McpAppsDemo } from "../src/app.js";
import { buildHostileServer } from "./hostile-app.js";
import { appFrames, buildPage, launchChromium, send } from "./support.js";

let page: { dir: string; dispose(): Promise<void> };
let mcp: SdkHttpServer;
let demo: McpAppsDemo;
let browser: Browser;
const calls: string[] = [];

function hostileModel(request: PromptRequest): ScriptedTurn {
  const last = request.messages.at(-1);
  // Only the user's request shows the app; the app's own messages (its report, the theme) get words.
  if (last?.tool_results?.length || last?.text !== "show the hostile app") return { text: "ok" };
  return { toolCalls: [{ name: "hostile__show", input: {}, id: `show_${request.messages.length}` }] };
}

beforeAll(async () => {
  page = await buildPage();
  mcp = await startSdkHttpServer(() => buildHostileServer(() => demo.url, calls));
  demo = await startMcpAppsDemo({
    port: 0,
    dataDir: mkdtempSync(join(tmpdir(), "glove-mcp-apps-")), // not ./.glove of the repository
    uiDir: page.dir,
    servers: [{ id: "hostile", name: "Hostile", description: "attacks its host", url: mcp.url }],
    model: () => new ScriptedModel([], { fallback: hostileModel }),
  });
  browser = await launchChromium();
}, SLOW_WORK_MS);

afterAll(async () => {
  await browser?.close();
  await demo?.close();
  await mcp?.stop();
  await page?.dispose();
});

describe("a hostile MCP App", () => {
  let tab: Page;
  const seen: string[] = [];

  it("reaches nothing of the page, and says so in its own message", async () => {
    const context = await browser.newContext();
    await context.addCookies([{ name: "page_secret", value: "s3cret", url: demo.url }]);
    tab = await context.newPage();
    tab.setDefaultTimeout(PROMPT_WAIT_MS);
    tab.on("request", (request) => seen.push(request.url()));
    await tab.goto(demo.url);
    await send(tab, "show the hostile app");
    await expect.poll(() => appFrames(tab).count(), { timeout: PROMPT_WAIT_MS }).toBe(1);
    const report = tab.locator('[data-glove-role="user"]', { hasText: /^HOSTILE / });
    await expect.poll(() => report.count(), { timeout: PROMPT_WAIT_MS }).toBe(1);
    const found = JSON.parse(((await report.textContent()) ?? "").replace(/^HOSTILE /, "")) as Record<string, string>;
    expect(found).toEqual({
      theme: "light",
      parentDocument: "blocked",
      cookie: "blocked",
      storage: "blocked",
      fetchPage: "blocked",
      popup: "blocked",
      modelOnly: "refused",
    });
    expect(new URL(tab.url()).pathname).toBe("/");
    expect(seen.filter((url) => /from-app|navigated-by-app/.test(url))).toEqual([]);
    expect(context.pages()).toHaveLength(1);
    expect(calls).not.toContain("secret");
  });

  it("gets the host's new theme as host-context-changed, without reloading", async () => {
    await tab.getByRole("button", { name: "Dark apps" }).click();
    await expect
      .poll(() => tab.locator('[data-glove-role="user"]', { hasText: /^THEME dark$/ }).count(), {
        timeout: PROMPT_WAIT_MS,
      })
      .toBe(1);
    // Still the same document: it did not run (and report) again.
    expect(await tab.locator('[data-glove-role="user"]', { hasText: /^HOSTILE / }).count()).toBe(1);
  });

  it("ignores tool calls posted by another frame or by a page script", async () => {
    await tab.evaluate(() => {
      const forged = {
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "steal", arguments: { from: "forger" } },
      };
      window.postMessage(forged, "*");
      const other = document.createElement("iframe");
      other.sandbox.add("allow-scripts");
      other.srcdoc = `<script>parent.postMessage(${JSON.stringify(forged)}, "*"); parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/initialized", params: {} }, "*");</script>`;
      other.onload = () => {
        // Only after the forgeries: the app's own call of the same tool, which must reach the prompt.
        const app = document.querySelector<HTMLIFrameElement>('iframe[data-glove-role="mcp-app"]');
        app?.contentWindow?.postMessage({ hostileNudge: true }, "*");
      };
      document.body.append(other);
    });
    const prompts = tab.locator('[data-glove-role="permission-request"]');
    await expect.poll(() => prompts.count(), { timeout: PROMPT_WAIT_MS }).toBe(1);
    const text = (await prompts.textContent()) ?? "";
    expect(text).toContain("hostile__steal");
    await prompts.getByText("Details").click();
    expect(await prompts.textContent()).toContain("the-app");
    expect(await prompts.textContent()).not.toContain("forger");
    await prompts.getByRole("button", { name: "Deny" }).click();
    await expect
      .poll(() => tab.locator('[data-glove-role="permission-request"][data-glove-status="pending"]').count(), {
        timeout: PROMPT_WAIT_MS,
      })
      .toBe(0);
    expect(calls).not.toContain("steal");
  });
});
