/**
 * The web demo in a real browser: the UI built with Vite, the example server on a free port
 * (temporary data folder, the scene model from support/scenarios.ts), Debian's Chromium driven
 * by playwright-core. Every wait is for a DOM state or a server event, never for a duration.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startWebChat, type WebChat } from "../src/app.js";
import { EventStream } from "./sse.js";
import { SCREENSHOTS_DIR, buildUi, launchChromium, occurrences } from "./support/browser.js";
import { agentSaid, conversationOf, openPage, send, transcript } from "./support/page.js";
import { decodePng, pixelDifference } from "./support/png.js";
import { DOCUMENT_CHARS, Gates, LARGE_WORD, STREAM_TEXT, sceneAgent } from "./support/scenarios.js";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../test-support/timeouts.js";

const TOKEN = "browser-test-token";
let dataDir: string;
let uiDir: string;
let gates: Gates;
let chat: WebChat;
let browser: Browser;
let context: BrowserContext;
const pageErrors: Error[] = [];
const streams: EventStream[] = [];

function start(port = 0): Promise<WebChat> {
  return startWebChat({ port, dataDir, uiDir, token: TOKEN, env: {}, agent: sceneAgent(gates) });
}

async function newContext(): Promise<BrowserContext> {
  const created = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  created.setDefaultTimeout(PROMPT_WAIT_MS);
  return created;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "glove-web-chat-browser-"));
  uiDir = join(dataDir, "ui");
  gates = new Gates();
  [, browser] = await Promise.all([buildUi(uiDir), launchChromium()]);
  chat = await start();
  context = await newContext();
}, SLOW_WORK_MS);

afterEach(async () => {
  await Promise.all(streams.splice(0).map((s) => s.close()));
  expect(pageErrors.splice(0).map((e) => e.message)).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await chat?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, SLOW_WORK_MS);

const openChat = (url = chat.url, on: BrowserContext = context): Promise<Page> => openPage(on, url, pageErrors);
const streaming = (page: Page, text: string) => page.locator('[data-glove-streaming="true"]', { hasText: text });
const slot = (page: Page, title: string) => page.locator("[data-slot]", { hasText: title });
const connectionState = (page: Page) => page.getByTestId("connection").getAttribute("data-state");

/** The server's events for the page's conversation, read with the page's (demo) cookie. */
async function serverEvents(page: Page): Promise<EventStream> {
  const id = await conversationOf(page);
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const stream = new EventStream(`${chat.url}/api/conversations/${id}/events`, { cookie });
  streams.push(stream);
  await stream.next("snapshot");
  return stream;
}

/**
 * Saves a screenshot into docs/screenshots, unless the one there shows the same picture (Chromium
 * anti-aliases a few pixels differently from run to run; rewriting would only churn the tree).
 */
async function screenshot(page: Page, name: string): Promise<void> {
  // Nothing half-drawn: no text still streaming.
  await page.locator("[data-glove-streaming]").waitFor({ state: "detached" });
  const png = await page.screenshot({ animations: "disabled", caret: "hide" });
  const path = join(SCREENSHOTS_DIR, name);
  const existing = await readFile(path).catch(() => undefined);
  if (existing && pixelDifference(decodePng(existing), decodePng(png)) < 0.002) return;
  await mkdir(SCREENSHOTS_DIR, { recursive: true });
  await writeFile(path, png);
}

describe("web-chat in Chromium", () => {
  it(
    "streams the agent's text into one bubble",
    async () => {
      const page = await openChat();
      expect(await connectionState(page)).toBe("idle");
      await send(page, "run stream");
      await page.locator('[data-glove-role="user"]', { hasText: "run stream" }).waitFor();
      // The first words are on screen while the model is still in the middle of its answer.
      await streaming(page, "Streaming works:").waitFor();
      await gates.reached("stream");
      expect(await transcript(page).innerText()).not.toContain("arrives on its own");
      gates.open("stream");
      await agentSaid(page, STREAM_TEXT).waitFor();
      await page.locator("[data-glove-streaming]").waitFor({ state: "detached" });
      expect(await occurrences(transcript(page), "Streaming works")).toBe(1);
      expect(await connectionState(page)).toBe("open");
      await page.close();
    },
    SLOW_WORK_MS,
  );

  it(
    "streams a turn with a 300 KB tool result and five 100 KB deltas to the page and a second stream, through turn_end",
    async () => {
      const page = await openChat();
      await send(page, "run hello");
      await agentSaid(page, "Hello again.").waitFor();
      const stream = await serverEvents(page);
      await send(page, "run large");
      const last = LARGE_WORD(5).trim();
      await agentSaid(page, "Done reading.").waitFor();
      const said = await agentSaid(page, "Done reading.").innerText();
      expect(said).toContain(`Read ${DOCUMENT_CHARS} characters.`);
      expect(said).toContain(last);
      expect(await page.locator('[data-tool="read_document"]').getAttribute("data-tool-status")).toBe("success");
      await page.locator("[data-glove-streaming]").waitFor({ state: "detached" });
      expect(await connectionState(page)).toBe("open");
      // A reader that keeps up gets every event live: the result, the deltas and turn_end, with no second snapshot.
      const end = await stream.next("turn_end");
      expect(end.data).toMatchObject({ status: "done" });
      expect(stream.events.filter((e) => e.event === "snapshot")).toHaveLength(1);
      const result = stream.events.find((e) => e.event === "tool_use_result")?.data as { result: { data: string } };
      expect(result.result.data).toHaveLength(DOCUMENT_CHARS);
      expect(
        stream.events
          .filter((e) => e.event === "text_delta")
          .map((e) => (e.data as { text: string }).text)
          .join(""),
      ).toContain(last);
      await page.close();
    },
    SLOW_WORK_MS,
  );

  it(
    "shows each display strategy, for pushAndWait and pushAndForget slots, and two slots of one turn on their own calls",
    async () => {
      const page = await openChat();
      await send(page, "run strategies");
      await slot(page, "Wait, stay?").waitFor();
      await slot(page, "Wait, hide on complete?").waitFor();
      // Interleaved: each slot right after the tool call that pushed it.
      const order = await page.$$eval('[data-tool="ask_choice"], [data-slot="choice"]', (nodes) =>
        nodes.map((node) =>
          node.hasAttribute("data-call-id")
            ? `call:${node.getAttribute("data-call-id")}`
            : `slot:${node.getAttribute("data-slot-for")}`,
        ),
      );
      expect(order).toHaveLength(4);
      const [callA, slotA, callB, slotB] = order as [string, string, string, string];
      expect(callA).not.toBe(callB);
      expect(slotA).toBe(callA.replace("call:", "slot:"));
      expect(slotB).toBe(callB.replace("call:", "slot:"));

      // stay: still shown once answered, as answered.
      await slot(page, "Wait, stay?").getByRole("button", { name: "Yes" }).click();
      await page.locator('[data-slot][data-slot-status="resolved"]', { hasText: "Wait, stay?" }).waitFor();
      // hide-on-complete: gone once answered.
      await slot(page, "Wait, hide on complete?").getByRole("button", { name: "No" }).click();
      await slot(page, "Wait, hide on complete?").waitFor({ state: "detached" });

      // hide-on-new: shown until a newer slot of the same tool appears.
      await slot(page, "Wait, hide on new #1?").waitFor();
      await slot(page, "Wait, hide on new #1?").getByRole("button", { name: "Yes" }).click();
      await slot(page, "Wait, hide on new #2?").waitFor();
      await slot(page, "Wait, hide on new #1?").waitFor({ state: "detached" });
      await slot(page, "Wait, hide on new #2?").getByRole("button", { name: "No" }).click();

      // pushAndForget + stay, and + hide-on-complete: shown while its tool works.
      await slot(page, "Forget, stay").waitFor();
      await gates.reached("forget-complete");
      await page
        .locator('[data-slot="notice"][data-slot-status="shown"]', { hasText: "Forget, hide on complete" })
        .waitFor();
      gates.open("forget-complete");
      await slot(page, "Forget, hide on complete").waitFor({ state: "detached" });

      // pushAndForget + hide-on-new.
      await slot(page, "Forget, hide on new #1").waitFor();
      await gates.reached("forget-new");
      gates.open("forget-new");
      await slot(page, "Forget, hide on new #2").waitFor();
      await slot(page, "Forget, hide on new #1").waitFor({ state: "detached" });

      await agentSaid(page, "Every strategy shown.").waitFor();
      for (const title of ["Wait, stay?", "Wait, hide on new #2?", "Forget, stay", "Forget, hide on new #2"])
        expect(await slot(page, title).count()).toBe(1);
      for (const title of [
        "Wait, hide on complete?",
        "Wait, hide on new #1?",
        "Forget, hide on complete",
        "Forget, hide on new #1",
      ])
        expect(await slot(page, title).count()).toBe(0);
      await page.close();
    },
    SLOW_WORK_MS,
  );

  it(
    "asks for permission: allowed, the tool runs; denied, it does not",
    async () => {
      const page = await openChat();
      const booked = chat.bookings.size;
      const prompt = page.locator('[data-glove-role="permission-request"]');

      await send(page, "run permission");
      await prompt.waitFor();
      expect(await prompt.innerText()).toContain("book_table");
      await prompt.getByRole("button", { name: "Allow" }).click();
      await prompt.waitFor({ state: "detached" });
      await agentSaid(page, "The table is booked.").waitFor();
      await page.locator('[data-result="book_table"]', { hasText: "Grace" }).waitFor();
      expect(chat.bookings.size).toBe(booked + 1);

      await send(page, "run permission");
      await prompt.waitFor();
      await prompt.getByRole("button", { name: "Deny" }).click();
      await prompt.waitFor({ state: "detached" });
      await agentSaid(page, "Not booked: permission was refused.").waitFor();
      expect(chat.bookings.size).toBe(booked + 1);
      const calls = page.locator('[data-tool="book_table"]');
      expect(await calls.count()).toBe(2);
      expect(await calls.nth(0).getAttribute("data-tool-status")).toBe("success");
      expect(await calls.nth(1).getAttribute("data-tool-status")).toBe("error");

      // From history after a reload: the finished call is drawn by book_table's renderResult.
      await page.reload();
      await agentSaid(page, "Not booked: permission was refused.").waitFor();
      expect(await page.locator('[data-result="book_table"]', { hasText: "Grace" }).count()).toBe(1);
      expect(await prompt.count()).toBe(0);
      await page.close();
    },
    SLOW_WORK_MS,
  );

  it(
    "aborts a running turn: the server ends it as aborted and takes the next message",
    async () => {
      const page = await openChat();
      await send(page, "run abort");
      await streaming(page, "one two three,").waitFor();
      await gates.reached("abort");
      const events = await serverEvents(page);
      await page.getByRole("button", { name: "Stop" }).click();
      await events.next("turn_end", (d) => d.status === "aborted");
      await page.locator('[data-glove-interrupted="true"]', { hasText: "one two three," }).waitFor();
      await page.getByRole("button", { name: "Stop" }).waitFor({ state: "detached" });
      expect(await transcript(page).innerText()).not.toContain("four five six");

      await send(page, "run hello");
      await agentSaid(page, "Hello again.").waitFor();
      await events.next("turn_end", (d) => d.status === "done");
      await page.close();
    },
    SLOW_WORK_MS,
  );

  it(
    "resumes after a reload mid-stream without doubling text; the pending form survives reloads, refuses a wrong answer, then takes a right one",
    async () => {
      const page = await openChat();
      await send(page, "run reload");
      await streaming(page, "Before the reload.").waitFor();
      await gates.reached("reload");
      await page.reload();
      // The snapshot carries the text streamed so far; the stream goes on after it.
      await streaming(page, "Before the reload.").waitFor();
      gates.open("reload");
      const form = page.getByRole("form", { name: "Reservation" });
      await form.waitFor();
      await agentSaid(page, "Before the reload. After the reload.").waitFor();
      expect(await occurrences(transcript(page), "Before the reload.")).toBe(1);
      expect(await occurrences(transcript(page), "After the reload.")).toBe(1);

      await page.reload();
      await form.waitFor();
      expect(await form.getAttribute("data-slot-status")).toBe("pending");
      expect(await occurrences(transcript(page), "Before the reload.")).toBe(1);

      // A value failing the tool's resolveSchema: the issues show, the tool keeps waiting.
      await form.getByLabel("Name").fill("Ada");
      await form.getByLabel("Guests").fill("40");
      await form.getByRole("button", { name: "Send details" }).click();
      await form.locator('[data-issue="guests"]', { hasText: "Twelve guests at most" }).waitFor();
      expect(await form.getByRole("alert").innerText()).toContain("Twelve guests at most");
      expect(await form.getAttribute("data-slot-status")).toBe("pending");
      expect(await page.locator('[data-tool="reservation_form"]').getAttribute("data-tool-status")).toBe("running");

      await form.getByLabel("Guests").fill("4");
      await form.getByRole("button", { name: "Send details" }).click();
      await form.waitFor({ state: "detached" });
      await agentSaid(page, "Form answered by Ada.").waitFor();
      await page.locator('[data-result="reservation_form"]', { hasText: "Ada" }).waitFor();

      // From history after a reload: the answered form is drawn by its renderResult.
      await page.reload();
      await agentSaid(page, "Form answered by Ada.").waitFor();
      expect(await page.locator('[data-result="reservation_form"]', { hasText: "4 guests at 19:30" }).count()).toBe(1);
      expect(await form.count()).toBe(0);
      await page.close();
    },
    SLOW_WORK_MS,
  );

  it(
    "keeps two tabs on one conversation in step",
    async () => {
      const one = await openChat();
      await send(one, "run tabs");
      const id = await conversationOf(one);
      const two = await openChat(`${chat.url}/?c=${id}`);
      for (const page of [one, two]) await slot(page, "Which tab answers?").waitFor();
      await two.getByRole("button", { name: "This one" }).click();
      for (const page of [one, two]) {
        await agentSaid(page, "Answered in one tab.").waitFor();
        await page
          .locator('[data-slot="choice"][data-slot-status="resolved"]', { hasText: "Which tab answers?" })
          .waitFor();
      }
      await send(two, "run hello");
      await one.locator('[data-glove-role="user"]', { hasText: "run hello" }).waitFor();
      await agentSaid(one, "Hello again.").waitFor();
      for (const page of [one, two]) {
        expect(await occurrences(transcript(page), "Both tabs see this.")).toBe(1);
        expect(await occurrences(transcript(page), "Hello again.")).toBe(1);
      }
      await one.close();
      await two.close();
    },
    SLOW_WORK_MS,
  );

  it(
    "shows a visible fallback for a renderer the UI does not have; dismissing it ends the tool's wait",
    async () => {
      const page = await openChat();
      await send(page, "run unknown");
      const fallback = page.locator('[data-glove-role="unknown-renderer"]');
      await fallback.waitFor();
      expect(await fallback.innerText()).toContain("mystery_widget");
      await fallback.getByRole("button", { name: "Dismiss" }).click();
      await agentSaid(page, "The mystery tool ended: error.").waitFor();
      await page.close();
    },
    SLOW_WORK_MS,
  );

  it(
    "lists conversations, starts a new one and switches between them",
    async () => {
      const own = await newContext();
      const page = await openChat(chat.url, own);
      await send(page, "run hello from the first conversation");
      await agentSaid(page, "Hello again.").waitFor();
      const first = await conversationOf(page);

      await page.getByRole("button", { name: "New conversation" }).click();
      await page.getByText("try one of these").waitFor();
      expect(new URL(page.url()).searchParams.get("c")).toBeNull();
      await page.getByRole("button", { name: "What can you do?" }).click();
      await agentSaid(page, "I'm the Glove Bistro assistant").waitFor();
      const second = await conversationOf(page);
      expect(second).not.toBe(first);

      const list = page.getByRole("navigation", { name: "Conversations" });
      await list
        .locator(`[data-conversation-id="${second}"][aria-current="page"]`, { hasText: "What can you do?" })
        .waitFor();
      await list
        .locator(`[data-conversation-id="${first}"]`, { hasText: "run hello from the first conversation" })
        .click();
      await agentSaid(page, "Hello again.").waitFor();
      await list.locator(`[data-conversation-id="${first}"][aria-current="page"]`).waitFor();
      expect(await transcript(page).innerText()).not.toContain("Glove Bistro assistant");
      expect(await conversationOf(page)).toBe(first);
      await own.close();
    },
    SLOW_WORK_MS,
  );

  it(
    "plays the demo's walkthrough and saves screenshots: a form, the permission prompt, tasks and inbox",
    async () => {
      const own = await newContext(); // its own cookie, so the conversation list holds only this one
      const page = await openChat(chat.url, own);
      await page.getByRole("button", { name: "Book a table for two tonight" }).click();
      const form = page.getByRole("form", { name: "Reservation" });
      await form.waitFor();
      await page.locator('[data-slot="show_menu"]').waitFor();
      await page.locator('[data-task-status="in_progress"]').waitFor();
      await form.getByLabel("Name").fill("Ada");
      await screenshot(page, "web-chat-form.png");

      await form.getByRole("button", { name: "Send details" }).click();
      const prompt = page.locator('[data-glove-role="permission-request"]');
      await prompt.waitFor();
      await screenshot(page, "web-chat-permission.png");

      await prompt.getByRole("button", { name: "Allow" }).click();
      await agentSaid(page, "All three tasks are done.").waitFor();
      expect(await page.locator('[data-task-status="completed"]').count()).toBe(3);
      await page.getByRole("button", { name: "Send", exact: true }).waitFor();
      await send(page, "Put me on the waitlist for Friday");
      await page
        .getByTestId("inbox")
        .locator('[data-inbox-status="pending"]', { hasText: "waitlist_friday" })
        .waitFor();
      await agentSaid(page, "The request waits in the inbox").waitFor();
      await screenshot(page, "web-chat-tasks.png");
      await own.close();
    },
    SLOW_WORK_MS,
  );

  it(
    "shows when the server is unreachable and recovers when it is back; the menu card then comes from history",
    async () => {
      const page = await openChat();
      await send(page, "Show me the menu");
      await agentSaid(page, "Anything catch your eye?").waitFor();
      await page.locator('[data-slot="show_menu"]').waitFor();
      expect(await connectionState(page)).toBe("open");

      const port = chat.port;
      await chat.close();
      await page.locator('[data-testid="connection"][data-state="offline"]').waitFor();
      expect(await page.getByTestId("connection").innerText()).toMatch(/offline/i);

      chat = await start(port);
      await page.locator('[data-testid="connection"][data-state="open"]').waitFor();
      // The restarted server rebuilt the conversation from its store: no live slots, so the
      // finished show_menu call is drawn by its renderResult from the stored renderData.
      await page.locator('[data-result="show_menu"]', { hasText: "Mushroom risotto" }).waitFor();
      expect(await page.locator('[data-slot="show_menu"]').count()).toBe(0);
      expect(await occurrences(transcript(page), "Anything catch your eye?")).toBe(1);

      await send(page, "run hello");
      await agentSaid(page, "Hello again.").waitFor();
      await page.close();
    },
    SLOW_WORK_MS,
  );
});
