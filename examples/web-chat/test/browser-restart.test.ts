/**
 * The demo's questions survive a server restart (Ctrl-C, npm start): in Chromium, the reservation
 * form and the permission prompt are shown, the server is closed and started again on the same
 * data folder and port, and the page — reconnecting by itself, or reloaded — shows the same
 * question still pending. Answering it there resumes the turn: the table is booked once.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { WireSlot } from "glove-core";
import { startWebChat, type WebChat } from "../src/app.js";
import { browserTestHooks, buildUi, launchChromium, occurrences } from "./support/browser.js";
import { agentSaid, conversationOf, openPage, send, transcript } from "./support/page.js";
import { Gates, sceneAgent } from "./support/scenarios.js";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../test-support/timeouts.js";

let dataDir: string;
let uiDir: string;
let chat: WebChat;
let browser: Browser;
let context: BrowserContext;
const pageErrors: Error[] = [];

function start(port = 0): Promise<WebChat> {
  return startWebChat({ port, dataDir, uiDir, token: "restart-test-token", env: {}, agent: sceneAgent(new Gates()) });
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "glove-web-chat-restart-"));
  uiDir = join(dataDir, "ui");
  [, browser] = await Promise.all([buildUi(uiDir), launchChromium()]);
  chat = await start();
  context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  context.setDefaultTimeout(PROMPT_WAIT_MS);
}, SLOW_WORK_MS);

browserTestHooks(
  pageErrors,
  async () => {
    await browser?.close();
    await chat?.close();
  },
  () => dataDir,
);

const openChat = (): Promise<Page> => openPage(context, chat.url, pageErrors);

/** The conversation's snapshot, read with the page's (demo) cookie. */
async function snapshotOf(page: Page): Promise<{ busy: boolean; slots: WireSlot[] }> {
  const id = await conversationOf(page);
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const response = await fetch(`${chat.url}/api/conversations/${id}`, { headers: { cookie } });
  expect(response.status).toBe(200);
  return (await response.json()) as { busy: boolean; slots: WireSlot[] };
}

/** The question the conversation waits for: exactly one pending slot, with the turn no longer busy. */
async function waitingFor(page: Page, renderer: string): Promise<string> {
  const snapshot = await snapshotOf(page);
  expect(snapshot.busy).toBe(false);
  const pending = snapshot.slots.filter((slot) => slot.status === "pending");
  expect(pending).toEqual([expect.objectContaining({ renderer, mode: "wait" })]);
  return pending[0]!.id;
}

/** Ctrl-C and npm start: the server closes, and a new one starts on the same data folder and port. */
async function restart(page: Page): Promise<WebChat> {
  const before = chat;
  await chat.close();
  await page.locator('[data-testid="connection"][data-state="offline"]').waitFor();
  chat = await start(before.port);
  return before;
}

describe("web-chat: questions survive a server restart", () => {
  it(
    "the reservation form: still pending after the restart (the page reconnects), answered there, the table booked once",
    async () => {
      const page = await openChat();
      await send(page, "Book a table for two tonight");
      const form = page.getByRole("form", { name: "Reservation" });
      await form.waitFor();
      const formCall = page.locator('[data-tool="reservation_form"]');
      await page.locator('[data-tool="reservation_form"][data-tool-status="running"]').waitFor();
      const asked = await snapshotOf(page);
      const slotId = asked.slots.find((slot) => slot.renderer === "reservation_form" && slot.status === "pending")!.id;

      const first = await restart(page);
      await page.locator('[data-testid="connection"][data-state="open"]').waitFor();
      // The same question, from the store: pending, its call still waiting (not aborted).
      expect(await waitingFor(page, "reservation_form")).toBe(slotId);
      await form.waitFor();
      expect(await form.getAttribute("data-slot-status")).toBe("pending");
      expect(await formCall.getAttribute("data-tool-status")).toBe("running");
      expect(await page.getByRole("form", { name: "Reservation" }).count()).toBe(1);

      await form.getByLabel("Name").fill("Ada");
      await form.getByRole("button", { name: "Send details" }).click();
      await form.waitFor({ state: "detached" });
      const prompt = page.locator('[data-glove-role="permission-request"]');
      await prompt.waitFor();
      await prompt.getByRole("button", { name: "Allow" }).click();
      await agentSaid(page, "All three tasks are done.").waitFor();

      expect(first.bookings.size).toBe(0);
      expect([...chat.bookings.values()]).toEqual([
        expect.objectContaining({ name: "Ada", guests: 2, code: "GB-1001" }),
      ]);
      expect(await occurrences(transcript(page), "confirmation GB-1001")).toBe(1);
      expect(await formCall.getAttribute("data-tool-status")).toBe("success");
      await page.close();
    },
    SLOW_WORK_MS,
  );

  it(
    "the permission prompt: still pending after the restart and a reload; allowed there, the tool runs once",
    async () => {
      const page = await openChat();
      await send(page, "run permission");
      const prompt = page.locator('[data-glove-role="permission-request"]');
      await prompt.waitFor();
      const slotId = (await snapshotOf(page)).slots.find((slot) => slot.status === "pending")!.id;
      const booked = chat.bookings.size;

      const first = await restart(page);
      await page.reload();
      await page.locator('[data-testid="connection"][data-state="open"]').waitFor();
      expect(await waitingFor(page, "permission_request")).toBe(slotId);
      await prompt.waitFor();
      expect(await prompt.innerText()).toContain("book_table");
      expect(await page.locator('[data-tool="book_table"]').getAttribute("data-tool-status")).toBe("running");

      await prompt.getByRole("button", { name: "Allow" }).click();
      await prompt.waitFor({ state: "detached" });
      await agentSaid(page, "The table is booked.").waitFor();
      await page.locator('[data-result="book_table"]', { hasText: "Grace" }).waitFor();
      expect(first.bookings.size).toBe(booked);
      expect([...chat.bookings.values()]).toEqual([
        expect.objectContaining({ name: "Grace", guests: 3, time: "20:15" }),
      ]);
      expect(await page.locator('[data-tool="book_table"]').count()).toBe(1);
      expect(await page.locator('[data-tool="book_table"]').getAttribute("data-tool-status")).toBe("success");
      expect(await occurrences(transcript(page), "The table is booked.")).toBe(1);
      await page.close();
    },
    SLOW_WORK_MS,
  );

  it(
    "Stop after the restart withdraws the waiting form: the call ends aborted, nothing is booked, the next message runs",
    async () => {
      const page = await openChat();
      await send(page, "Book a table for two tonight");
      const form = page.getByRole("form", { name: "Reservation" });
      await form.waitFor();
      await restart(page);
      await page.reload();
      await form.waitFor();
      // No turn runs on the server, but the question still waits: the user can still stop it.
      await page.getByRole("button", { name: "Stop" }).click();
      await form.waitFor({ state: "detached" });
      await page.locator('[data-tool="reservation_form"][data-tool-status="aborted"]').waitFor();
      await page.getByRole("button", { name: "Stop" }).waitFor({ state: "detached" });
      expect((await snapshotOf(page)).slots.filter((slot) => slot.status === "pending")).toEqual([]);

      await send(page, "run hello");
      await agentSaid(page, "Hello again.").waitFor();
      expect(chat.bookings.size).toBe(0);
      await page.close();
    },
    SLOW_WORK_MS,
  );
});

describe("web-chat: regenerate, edit and switch", () => {
  const bubble = (page: Page, role: "user" | "agent", text: string) =>
    page.locator(`[data-glove-role="${role}"]:not([data-glove-streaming])`, { hasText: text });
  const position = (page: Page, role: "user" | "agent", text: string) =>
    bubble(page, role, text).getByTestId("branch-position");

  it(
    "regenerates, switches back, edits an earlier message; every branch survives a reload and a server restart",
    async () => {
      const page = await openChat();
      await send(page, "run versions");
      const first = (await agentSaid(page, "Answer version").first().innerText()).match(/Answer version \d+\./)![0];
      await page.getByRole("button", { name: "Regenerate" }).click();
      const second = bubble(page, "agent", "Answer version").filter({ hasNotText: first });
      await second.waitFor();
      expect(await position(page, "agent", "Answer version").innerText()).toBe("2/2");
      expect(await occurrences(transcript(page), first)).toBe(0);

      // Back to the first answer, then edit the question: the edited one runs its own scene.
      await bubble(page, "agent", "Answer version").getByRole("button", { name: "Previous version" }).click();
      await bubble(page, "agent", first).waitFor();
      expect(await position(page, "agent", first).innerText()).toBe("1/2");
      await bubble(page, "user", "run versions").getByRole("button", { name: "Edit" }).click();
      await page.getByLabel("Edit message").fill("run hello");
      await page.getByRole("button", { name: "Save" }).click();
      await agentSaid(page, "Hello again.").waitFor();
      expect(await position(page, "user", "run hello").innerText()).toBe("2/2");
      expect(await occurrences(transcript(page), "Answer version")).toBe(0);

      await page.reload();
      await agentSaid(page, "Hello again.").waitFor();
      expect(await position(page, "user", "run hello").innerText()).toBe("2/2");
      await restart(page);
      await page.locator('[data-testid="connection"][data-state="open"]').waitFor();
      // The older question comes back with the answer that was shown on its branch.
      await bubble(page, "user", "run hello").getByRole("button", { name: "Previous version" }).click();
      await bubble(page, "agent", first).waitFor();
      expect(await position(page, "user", "run versions").innerText()).toBe("1/2");
      expect(await position(page, "agent", first).innerText()).toBe("1/2");
      expect(await occurrences(transcript(page), "Hello again.")).toBe(0);
      await page.close();
    },
    SLOW_WORK_MS,
  );
});
