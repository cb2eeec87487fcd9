/**
 * The example's unmodified AI SDK useChat page (@ai-sdk/react, built with Vite, React 19) in
 * Debian's Chromium against a real glove-server on 127.0.0.1, with a scripted model. Every wait
 * is for a DOM state or the server's state, never for a duration.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { browserTestHooks, launchChromium } from "../../web-chat/test/support/browser.js";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../test-support/timeouts.js";
import { startUseChat, type UseChat } from "../src/app.js";
import { Gates, OPENED_TEXT, WAITING_TEXT, gatedAgent } from "./support/gated-agent.js";
import { assistantSaid, buildPage, chatIdOf, edit, openChat, send, statusIs, toolPart } from "./support/page.js";

let dir: string;
let gates: Gates;
let app: UseChat;
let browser: Browser;
let context: BrowserContext;
const pageErrors: Error[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "glove-use-chat-"));
  gates = new Gates();
  [, browser] = await Promise.all([buildPage(join(dir, "ui")), launchChromium()]);
  app = await startUseChat({ port: 0, dataDir: join(dir, "data"), uiDir: join(dir, "ui"), agent: gatedAgent(gates) });
  context = await browser.newContext();
  context.setDefaultTimeout(PROMPT_WAIT_MS);
}, SLOW_WORK_MS);

browserTestHooks(
  pageErrors,
  async () => {
    await browser?.close();
    await app?.close();
  },
  () => dir,
);

interface Snapshot {
  busy: boolean;
  messages: Array<{
    sender: string;
    text: string;
    tool_results?: Array<{ tool_name: string; result: { status: string } }>;
  }>;
}

/** The conversation as the server holds it. */
async function serverSnapshot(page: Page): Promise<Snapshot> {
  const response = await fetch(`${app.url}/api/conversations/${chatIdOf(page)}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Snapshot;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + PROMPT_WAIT_MS;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const newChat = () => openChat(context, app.url, pageErrors);

describe("an unmodified useChat page on glove-server", () => {
  it(
    "streams the answer's text while the turn runs, then the rest when it ends",
    async () => {
      const page = await newChat();
      await send(page, "wait for text");
      // The text is on the page while the turn still runs on the server (its tool waits at the gate).
      await assistantSaid(page, WAITING_TEXT).waitFor();
      await statusIs(page, "streaming");
      expect((await serverSnapshot(page)).busy).toBe(true);
      gates.open("text");
      await assistantSaid(page, OPENED_TEXT).waitFor();
      await statusIs(page, "ready");
      await page.close();
    },
    SLOW_WORK_MS,
  );

  it(
    "shows tool parts with their input and output",
    async () => {
      const page = await newChat();
      await send(page, "What is the weather in Paris?");
      const part = toolPart(page, "get_weather", "output-available");
      await part.waitFor();
      expect(JSON.parse(await part.getByTestId("tool-input").innerText())).toEqual({ city: "Paris" });
      expect(JSON.parse(await part.getByTestId("tool-output").innerText())).toMatchObject({
        city: "Paris",
        forecast: expect.any(String),
      });
      await assistantSaid(page, "The weather in Paris:").waitFor();
      await statusIs(page, "ready");
      await page.close();
    },
    SLOW_WORK_MS,
  );

  it(
    "asks for approval with Glove's permission prompt; approved, the tool runs",
    async () => {
      const page = await newChat();
      await send(page, "Please email ada");
      const asking = toolPart(page, "send_email", "approval-requested");
      await asking.waitFor();
      await statusIs(page, "ready"); // the response paused for the person
      expect(app.outbox.filter((e) => e.to === "ada")).toEqual([]);
      await asking.getByRole("button", { name: "Approve" }).click();
      await toolPart(page, "send_email", "output-available").waitFor();
      await assistantSaid(page, "Done: the email to ada is sent.").waitFor();
      expect(app.outbox.filter((e) => e.to === "ada")).toHaveLength(1);
      await page.close();
    },
    SLOW_WORK_MS,
  );

  it(
    "a denied approval does not run the tool",
    async () => {
      const page = await newChat();
      await send(page, "Please email bob");
      const asking = toolPart(page, "send_email", "approval-requested");
      await asking.getByRole("button", { name: "Deny" }).click();
      await toolPart(page, "send_email", "output-denied").waitFor();
      await assistantSaid(page, "That did not work").waitFor();
      await statusIs(page, "ready");
      expect(app.outbox.filter((e) => e.to === "bob")).toEqual([]);
      const stored = (await serverSnapshot(page)).messages.flatMap((m) => m.tool_results ?? []);
      expect(stored).toEqual([
        expect.objectContaining({ tool_name: "send_email", result: expect.objectContaining({ status: "error" }) }),
      ]);
      await page.close();
    },
    SLOW_WORK_MS,
  );

  it(
    "stop() aborts the turn on the server",
    async () => {
      const page = await newChat();
      await send(page, "wait for stop");
      await toolPart(page, "wait_for_gate", "input-available").waitFor();
      await page.getByRole("button", { name: "Stop" }).click();
      await statusIs(page, "ready");
      const snapshot = await until(
        () => serverSnapshot(page),
        (s) => !s.busy,
      );
      expect(snapshot.busy).toBe(false);
      expect(gates.aborted.has("stop")).toBe(true);
      const results = snapshot.messages.flatMap((m) => m.tool_results ?? []);
      expect(results).toEqual([
        expect.objectContaining({ tool_name: "wait_for_gate", result: expect.objectContaining({ status: "aborted" }) }),
      ]);
      // The conversation goes on.
      await send(page, "What is the weather in Oslo?");
      await assistantSaid(page, "The weather in Oslo:").waitFor();
      await page.close();
    },
    SLOW_WORK_MS,
  );

  it(
    "after a reload, resume: true picks up the running turn and follows it to its end",
    async () => {
      const page = await newChat();
      await send(page, "wait for reload");
      await toolPart(page, "wait_for_gate", "input-available").waitFor();
      await page.reload();
      // The history comes from the server, the reply in progress from the resumed stream.
      await page.locator('li[data-role="user"]', { hasText: "wait for reload" }).waitFor();
      await toolPart(page, "wait_for_gate", "input-available").waitFor();
      await assistantSaid(page, WAITING_TEXT).waitFor();
      await statusIs(page, "streaming");
      gates.open("reload");
      await assistantSaid(page, OPENED_TEXT).waitFor();
      await toolPart(page, "wait_for_gate", "output-available").waitFor();
      await statusIs(page, "ready");
      expect(await page.locator('li[data-role="assistant"]').count()).toBe(1);
      expect(await assistantSaid(page, WAITING_TEXT).count()).toBe(1);
      await page.close();
    },
    SLOW_WORK_MS,
  );

  it(
    "regenerate() answers again on the server; the reloaded page shows the new answer only",
    async () => {
      const page = await newChat();
      await send(page, "count please");
      await assistantSaid(page, "Answer 1.").waitFor();
      await page.getByRole("button", { name: "Regenerate" }).click();
      await assistantSaid(page, "Answer 2.").waitFor();
      await statusIs(page, "ready");
      expect(await assistantSaid(page, "Answer 1.").count()).toBe(0);
      await page.reload();
      await assistantSaid(page, "Answer 2.").waitFor();
      expect(await page.locator('li[data-role="assistant"]').count()).toBe(1);
      const stored = (await serverSnapshot(page)).messages.filter((m) => m.sender === "agent").map((m) => m.text);
      expect(stored).toEqual(["Answer 2."]);
      await page.close();
    },
    SLOW_WORK_MS,
  );

  it(
    "an edit while an approval waits is useChat's error, the messages stay as they were; answered, the edit works",
    async () => {
      const page = await newChat();
      await send(page, "Please email frank");
      const asking = toolPart(page, "send_email", "approval-requested");
      await asking.waitFor();
      await statusIs(page, "ready");
      const before = await serverSnapshot(page);
      await edit(page, "Please email frank", "What is the weather in Rome?");
      await statusIs(page, "error");
      await page.getByRole("alert").filter({ hasText: "approve or deny it" }).waitFor();
      // The messages useChat dropped for the edit are back, the approval still waiting; the server changed nothing.
      await asking.waitFor();
      expect(await page.locator('li[data-role="user"]').allInnerTexts()).toEqual([
        expect.stringContaining("Please email frank"),
      ]);
      expect(await page.locator('li[data-role="assistant"]').count()).toBe(1);
      expect(await serverSnapshot(page)).toEqual(before);
      // Approved, the turn ends; then the same edit answers the new text.
      await asking.getByRole("button", { name: "Approve" }).click();
      await assistantSaid(page, "Done: the email to frank is sent.").waitFor();
      await statusIs(page, "ready");
      expect(await page.getByRole("alert").count()).toBe(0);
      await edit(page, "Please email frank", "What is the weather in Rome?");
      await assistantSaid(page, "The weather in Rome:").waitFor();
      await statusIs(page, "ready");
      expect(await page.locator('li[data-role="user"]').allInnerTexts()).toEqual([
        expect.stringContaining("What is the weather in Rome?"),
      ]);
      expect(app.outbox.filter((e) => e.to === "frank")).toHaveLength(1);
      await page.close();
    },
    SLOW_WORK_MS,
  );

  it(
    "an approval answered in the page after the server restarted runs the tool once (a stored question)",
    async () => {
      const page = await newChat();
      await send(page, "Please email eve");
      const asking = toolPart(page, "send_email", "approval-requested");
      await asking.waitFor();
      await app.close();
      app = await startUseChat({
        port: app.port,
        dataDir: join(dir, "data"),
        uiDir: join(dir, "ui"),
        agent: gatedAgent(gates),
      });
      await asking.getByRole("button", { name: "Approve" }).click();
      await toolPart(page, "send_email", "output-available").waitFor();
      await assistantSaid(page, "Done: the email to eve is sent.").waitFor();
      expect(app.outbox.filter((e) => e.to === "eve")).toHaveLength(1);
      await page.close();
    },
    SLOW_WORK_MS,
  );
});
