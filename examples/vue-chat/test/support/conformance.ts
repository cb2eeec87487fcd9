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
  readonly binding: string;
  /** The page's server (a new one after `restart`). */
  readonly chat: WebChat;
  readonly gates: Gates;
  /** Opens the page (at `url`, default the page's root) and waits for it to be drawn. */
  open(url?: string): Promise<Page>;
  /** Ctrl-C and start again: the server closes (`page` shows it offline), a new one starts on the same data and port. */
  restart(page: Page): Promise<void>;
}

export interface ConformanceCase {
  name: string;
  run(target: ConformanceTarget): Promise<void>;
}

const streaming = (page: Page, text: string) => page.locator('[data-glove-streaming="true"]', { hasText: text });
const slot = (page: Page, title: string) => page.locator("[data-slot]", { hasText: title });
const bubble = (page: Page, role: "user" | "agent", text: string | RegExp) =>
  page.locator(`[data-glove-role="${role}"]:not([data-glove-streaming])`, { hasText: text });
const position = (page: Page, role: "user" | "agent", text: string | RegExp) =>
  page
    .locator(`[data-glove-role="${role}"]:not([data-glove-streaming])`, { hasText: text })
    .getByTestId("branch-position");
/** The user bubble of the k-th edit exactly ("… edit 1" must not find "… edit 10"). */
const edit = (k: number) => new RegExp(`run versions edit ${k}(?!\\d)`);

/** The transcript as rows: each message's role and text, each tool call's and slot's state. */
function conversationRows(page: Page): Promise<string[]> {
  return transcript(page).evaluate((root) =>
    [...root.querySelectorAll("[data-glove-role=user], [data-glove-role=agent], [data-tool], [data-slot]")].map(
      (node) => {
        const el = node as HTMLElement;
        if (el.dataset.tool) return `tool:${el.dataset.tool}:${el.dataset.toolStatus}`;
        if (el.dataset.slot) return `slot:${el.dataset.slot}:${el.dataset.slotStatus}`;
        // The message's own text, without its buttons (Edit, Regenerate, the picker).
        const text = [...el.childNodes]
          .filter((child) => child.nodeType === Node.TEXT_NODE)
          .map((child) => child.textContent)
          .join("")
          .trim();
        return `${el.dataset.gloveRole}:${text}`;
      },
    ),
  );
}

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
  {
    name: "keeps a waiting form through a server restart: still pending on the reconnected page, answered there, the table booked once",
    async run(target) {
      const { open, restart } = target;
      const page = await open();
      await send(page, "Book a table for two tonight");
      const form = page.getByRole("form", { name: "Reservation" });
      await form.waitFor();
      await page.locator('[data-tool="reservation_form"][data-tool-status="running"]').waitFor();
      await restart(page);
      await page.locator('[data-testid="connection"][data-state="open"]').waitFor();
      await form.waitFor();
      expect(await form.getAttribute("data-slot-status")).toBe("pending");
      expect(await page.getByRole("form", { name: "Reservation" }).count()).toBe(1);
      await form.getByLabel("Name").fill("Ada");
      await form.getByRole("button", { name: "Send details" }).click();
      await form.waitFor({ state: "detached" });
      const prompt = page.locator('[data-glove-role="permission-request"]');
      await prompt.waitFor();
      await prompt.getByRole("button", { name: "Allow" }).click();
      await agentSaid(page, "All three tasks are done.").waitFor();
      expect([...target.chat.bookings.values()].filter((booking) => booking.name === "Ada")).toHaveLength(1);
      expect(await page.locator('[data-result="book_table"]', { hasText: "Ada" }).count()).toBe(1);
      expect(await page.locator('[data-tool="reservation_form"]').getAttribute("data-tool-status")).toBe("success");
      await page.close();
    },
  },
  {
    name: "edits one message ten times: the picker counts eleven versions, walks back to the first, and keeps it after a reload",
    async run({ open }) {
      const page = await open();
      await send(page, "run versions edit 0");
      await agentSaid(page, "Answer version").waitFor();
      for (let k = 1; k <= 10; k++) {
        await bubble(page, "user", edit(k - 1))
          .getByRole("button", { name: "Edit" })
          .click();
        await page.getByLabel("Edit message").fill(`run versions edit ${k}`);
        await page.getByRole("button", { name: "Save" }).click();
        expect(await position(page, "user", edit(k)).innerText()).toBe(`${k + 1}/${k + 1}`);
        await page.locator("[data-glove-streaming]").waitFor({ state: "detached" });
        await bubble(page, "agent", "Answer version").waitFor();
      }
      expect(await occurrences(transcript(page), "run versions edit")).toBe(1);
      // Back one version at a time, to the first.
      for (let k = 10; k >= 1; k--) {
        await bubble(page, "user", edit(k)).getByRole("button", { name: "Previous version" }).click();
        expect(await position(page, "user", edit(k - 1)).innerText()).toBe(`${k}/11`);
      }
      await page.reload();
      expect(await position(page, "user", edit(0)).innerText()).toBe("1/11");
      expect(await occurrences(transcript(page), "run versions edit")).toBe(1);
      await page.close();
    },
  },
  {
    name: "keeps three tabs identical while a turn streams, asks and is answered from another tab",
    async run({ open, chat }) {
      const one = await open();
      await send(one, "run tabs");
      const url = `${chat.url}/?c=${await conversationOf(one)}`;
      const tabs = [one, await open(url), await open(url)];
      for (const page of tabs) await slot(page, "Which tab answers?").waitFor();
      await tabs[2]!.getByRole("button", { name: "This one" }).click();
      for (const page of tabs) await agentSaid(page, "Answered in one tab.").waitFor();
      // The same rows in the same states (the choice card's "Answered: This one" is the clicking tab's own note).
      const rows = await Promise.all(tabs.map(conversationRows));
      expect(rows[1]).toEqual(rows[0]);
      expect(rows[2]).toEqual(rows[0]);
      expect(rows[0]).toEqual([
        "user:run tabs",
        "agent:Both tabs see this.",
        "tool:ask_choice:success",
        "slot:choice:resolved",
        "agent:Answered in one tab.",
      ]);
      for (const page of tabs) await page.close();
    },
  },
  {
    name: "remembers an allowed permission: the next call of the tool runs without asking",
    async run(target) {
      const page = await target.open();
      const booked = target.chat.bookings.size;
      const prompt = page.locator('[data-glove-role="permission-request"]');
      await send(page, "run permission");
      await prompt.waitFor();
      await prompt.getByLabel("Remember my choice").check();
      await prompt.getByRole("button", { name: "Allow" }).click();
      await agentSaid(page, "The table is booked.").waitFor();
      await send(page, "run permission");
      await page.locator('[data-tool="book_table"][data-tool-status="success"]').nth(1).waitFor();
      await agentSaid(page, "The table is booked.").nth(1).waitFor();
      expect(await prompt.count()).toBe(0);
      expect(target.chat.bookings.size).toBe(booked + 2);
      await page.close();
    },
  },
  {
    name: "shows the tasks and the inbox live, in a second tab too",
    async run({ open, chat }) {
      const one = await open();
      await transcript(one).getByRole("button", { name: "Book a table for two tonight" }).click();
      const two = await open(`${chat.url}/?c=${await conversationOf(one)}`);
      for (const page of [one, two])
        await page.getByTestId("tasks").locator('[data-task-status="in_progress"]').waitFor();
      const form = two.getByRole("form", { name: "Reservation" });
      await form.getByLabel("Name").fill("Lin");
      await form.getByRole("button", { name: "Send details" }).click();
      await two.locator('[data-glove-role="permission-request"]').getByRole("button", { name: "Allow" }).click();
      for (const page of [one, two]) {
        await agentSaid(page, "All three tasks are done.").waitFor();
        expect(await page.getByTestId("tasks").locator('[data-task-status="completed"]').count()).toBe(3);
      }
      await send(one, "Put me on the waitlist for Friday");
      for (const page of [one, two])
        await page
          .getByTestId("inbox")
          .locator('[data-inbox-status="pending"]', { hasText: "waitlist_friday" })
          .waitFor();
      await one.close();
      await two.close();
    },
  },
];
