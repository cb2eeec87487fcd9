/**
 * Server rendering in a real browser: a conversation on the web demo's server is rendered with
 * vue/server-renderer from its snapshot, the page hydrates that markup in Chromium (no node of it
 * replaced, no hydration warning), and the live session takes over: a new message streams in.
 */
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createSSRApp } from "vue";
import { renderToString } from "vue/server-renderer";
import { beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startWebChat, type WebChat } from "glove-example-web-chat";
import type { ConversationSnapshot } from "glove-vue";
import { browserTestHooks, launchChromium } from "../../web-chat/test/support/browser.js";
import { agentSaid, send } from "../../web-chat/test/support/page.js";
import { Gates, STREAM_TEXT, sceneAgent } from "../../web-chat/test/support/scenarios.js";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../test-support/timeouts.js";
import { SsrChat } from "./ssr-page/ssr-chat.js";

const TOKEN = "ssr-test-token";
const PAGE_ROOT = fileURLToPath(new URL("./ssr-page", import.meta.url));

let dir: string;
let uiDir: string;
let chat: WebChat;
let browser: Browser;
const gates = new Gates();
const pageErrors: Error[] = [];

async function api(path: string, body?: unknown): Promise<Response> {
  return fetch(`${chat.url}/api${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** A conversation with one finished turn, as GET /conversations/:id answers it. */
async function finishedConversation(): Promise<ConversationSnapshot> {
  const { id } = (await (await api("/conversations", {})).json()) as { id: string };
  expect((await api(`/conversations/${id}/messages`, { text: "run hello" })).status).toBe(202);
  for (const deadline = Date.now() + PROMPT_WAIT_MS; Date.now() < deadline;) {
    const snapshot = (await (await api(`/conversations/${id}`)).json()) as ConversationSnapshot;
    if (!snapshot.busy && snapshot.messages.some((m) => m.sender === "agent" && m.text === "Hello again."))
      return snapshot;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the first turn did not finish");
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "glove-vue-ssr-"));
  uiDir = join(dir, "ui");
  const { build } = await import("vite");
  [browser] = await Promise.all([
    launchChromium(),
    build({
      configFile: false,
      root: PAGE_ROOT,
      logLevel: "warn",
      resolve: { conditions: ["glove-source", "module", "browser", "development|production"] },
      define: {
        __VUE_OPTIONS_API__: "false",
        __VUE_PROD_DEVTOOLS__: "false",
        __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: "true",
      },
      build: { outDir: uiDir, emptyOutDir: true },
    }),
  ]);
  chat = await startWebChat({
    port: 0,
    dataDir: join(dir, "data"),
    uiDir,
    token: TOKEN,
    env: {},
    agent: sceneAgent(gates),
  });
}, SLOW_WORK_MS);

browserTestHooks(
  pageErrors,
  async () => {
    await browser?.close();
    await chat?.close();
  },
  () => dir,
);

describe("glove-vue server rendering, hydrated in Chromium", () => {
  it(
    "hydrates the server's markup without replacing it, then streams a new turn",
    async () => {
      const snapshot = await finishedConversation();
      // What the app's server does per request: render from the snapshot, embed the snapshot.
      const html = await renderToString(createSSRApp(SsrChat, { snapshot, token: TOKEN }));
      expect(html).toContain("Hello again.");
      const state = JSON.stringify({ snapshot, token: TOKEN }).replace(/</g, "\\u003c");
      const index = join(uiDir, "index.html");
      const built = await readFile(index, "utf8");
      await writeFile(
        index,
        built.replace(
          '<div id="root"></div>',
          `<div id="root">${html}</div><script type="application/json" id="glove-state">${state}</script>`,
        ),
      );

      const context = await browser.newContext();
      context.setDefaultTimeout(PROMPT_WAIT_MS);
      const page = await context.newPage();
      page.on("pageerror", (error) => pageErrors.push(error));
      const console: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error" || message.type() === "warning") console.push(message.text());
      });
      // Before any script: record every element taken out of the server's markup.
      await page.addInitScript(() => {
        const removed: string[] = [];
        (window as unknown as { __removed: string[] }).__removed = removed;
        new MutationObserver((records) => {
          for (const record of records)
            for (const node of record.removedNodes)
              // Elements only: a live text update (the connection state) replaces its text node.
              if (node.nodeType === Node.ELEMENT_NODE) removed.push(`${node.nodeName}:${node.textContent ?? ""}`);
        }).observe(document, { childList: true, subtree: true });
      });
      await page.goto(chat.url);
      // Hydrated and live: the session opened the event stream after the snapshot.
      await page.locator('[data-testid="connection"][data-state="open"]').waitFor();
      expect(await page.evaluate(() => (window as unknown as { __removed: string[] }).__removed)).toEqual([]);
      expect(console.filter((line) => /hydrat|mismatch/i.test(line))).toEqual([]);
      await agentSaid(page, "Hello again.").waitFor();

      await send(page, "run stream");
      await page.locator('[data-glove-streaming="true"]', { hasText: "Streaming works:" }).waitFor();
      gates.open("stream");
      await agentSaid(page, STREAM_TEXT).waitFor();
      expect(await page.locator('[data-glove-role="agent"]', { hasText: "Hello again." }).count()).toBe(1);
      await context.close();
    },
    SLOW_WORK_MS,
  );
});
