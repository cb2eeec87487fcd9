/**
 * The conformance cases every binding's page passes: the same steps, the same DOM (roles, labels,
 * data-* attributes), whichever framework drew it. Each case gets a target — a page's server, its
 * scripted agent's gates and a way to open the page — and drives it as a person would. The agent is
 * the web demo's scene agent (examples/web-chat/test/support/scenarios.ts): "run <scene>" plays a
 * scene that stops at named gates until the case opens them.
 */
import { expect } from "vitest";
import type { Page } from "playwright-core";
import type { WebChat } from "glove-example-web-chat";
import { occurrences } from "../../../web-chat/test/support/browser.js";
import { agentSaid, conversationOf, send, transcript } from "../../../web-chat/test/support/page.js";
import { STREAM_TEXT, type Gates } from "../../../web-chat/test/support/scenarios.js";

/** One binding's page under test. */
export interface ConformanceTarget {
  /** "react", "vue"… */
  binding: string;
  chat: WebChat;
  gates: Gates;
  /** Opens the page (at `url`, default the page's root) and waits for it to be drawn. */
  open(url?: string): Promise<Page>;
}

export interface ConformanceCase {
  name: string;
  run(target: ConformanceTarget): Promise<void>;
}

const streaming = (page: Page, text: string) => page.locator('[data-glove-streaming="true"]', { hasText: text });
const slot = (page: Page, title: string) => page.locator("[data-slot]", { hasText: title });
const bubble = (page: Page, role: "user" | "agent", text: string) =>
  page.locator(`[data-glove-role="${role}"]:not([data-glove-streaming])`, { hasText: text });
const position = (page: Page, role: "user" | "agent", text: string) =>
  bubble(page, role, text).getByTestId("branch-position");

export const CONFORMANCE_CASES: ConformanceCase[] = [
  {
    name: "streams the agent's text into one bubble while the turn still runs",
    async run({ open, gates }) {
      const page = await open();
      expect(await page.getByTestId("connection").getAttribute("data-state")).toBe("idle");
      await send(page, "run stream");
      await page.locator('[data-glove-role="user"]', { hasText: "run stream" }).waitFor();
      await streaming(page, "Streaming works:").waitFor();
      await gates.reached("stream");
      expect(await transcript(page).innerText()).not.toContain("arrives on its own");
      gates.open("stream");
      await agentSaid(page, STREAM_TEXT).waitFor();
      await page.locator("[data-glove-streaming]").waitFor({ state: "detached" });
      expect(await occurrences(transcript(page), "Streaming works")).toBe(1);
      expect(await page.getByTestId("connection").getAttribute("data-state")).toBe("open");
      await page.close();
    },
  },
  {
    name: "resumes after a reload mid-stream without lost or doubled text; the form refuses a wrong answer (server-side check), then takes a right one",
    async run({ open, gates }) {
      const page = await open();
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

      await form.getByLabel("Name").fill("Ada");
      await form.getByLabel("Guests").fill("40");
      await form.getByRole("button", { name: "Send details" }).click();
      await form.locator('[data-issue="guests"]', { hasText: "Twelve guests at most" }).waitFor();
      expect(await form.getAttribute("data-slot-status")).toBe("pending");
      expect(await page.locator('[data-tool="reservation_form"]').getAttribute("data-tool-status")).toBe("running");
      // What the user typed stays while the issues are drawn.
      expect(await form.getByLabel("Name").inputValue()).toBe("Ada");

      await form.getByLabel("Guests").fill("4");
      await form.getByRole("button", { name: "Send details" }).click();
      await form.waitFor({ state: "detached" });
      await agentSaid(page, "Form answered by Ada.").waitFor();
      await page.reload();
      await agentSaid(page, "Form answered by Ada.").waitFor();
      expect(await page.locator('[data-result="reservation_form"]', { hasText: "4 guests at 19:30" }).count()).toBe(1);
      expect(await form.count()).toBe(0);
      await page.close();
    },
  },
  {
    name: "asks for permission: allowed, the tool runs once; denied, it does not",
    async run({ open, chat }) {
      const page = await open();
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
      expect(await calls.nth(1).getAttribute("data-tool-status")).toBe("error");
      await page.close();
    },
  },
  {
    name: "regenerates, switches back and edits: the branch picker is right, and stays right after a reload",
    async run({ open }) {
      const page = await open();
      await send(page, "run versions");
      const first = (await agentSaid(page, "Answer version").first().innerText()).match(/Answer version \d+\./)![0];
      await page.getByRole("button", { name: "Regenerate" }).click();
      await bubble(page, "agent", "Answer version").filter({ hasNotText: first }).waitFor();
      expect(await position(page, "agent", "Answer version").innerText()).toBe("2/2");
      expect(await occurrences(transcript(page), first)).toBe(0);

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
      await bubble(page, "user", "run hello").getByRole("button", { name: "Previous version" }).click();
      await bubble(page, "agent", first).waitFor();
      expect(await position(page, "user", "run versions").innerText()).toBe("1/2");
      expect(await occurrences(transcript(page), "Hello again.")).toBe(0);
      await page.close();
    },
  },
  {
    name: "keeps two tabs on one conversation in step; a slot answered in one settles in both",
    async run({ open, chat }) {
      const one = await open();
      await send(one, "run tabs");
      const id = await conversationOf(one);
      const two = await open(`${chat.url}/?c=${id}`);
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
  },
  {
    name: "stops a running turn from a second tab: both show it stopped, and the next message runs",
    async run({ open, chat, gates }) {
      const one = await open();
      await send(one, "run abort");
      await streaming(one, "one two three,").waitFor();
      await gates.reached("abort");
      const two = await open(`${chat.url}/?c=${await conversationOf(one)}`);
      await streaming(two, "one two three,").waitFor();
      await two.getByRole("button", { name: "Stop" }).click();
      for (const page of [one, two]) {
        await page.locator('[data-glove-interrupted="true"]', { hasText: "one two three," }).waitFor();
        await page.getByRole("button", { name: "Stop" }).waitFor({ state: "detached" });
        expect(await transcript(page).innerText()).not.toContain("four five six");
      }
      await send(one, "run hello");
      await agentSaid(two, "Hello again.").waitFor();
      await one.close();
      await two.close();
    },
  },
];
