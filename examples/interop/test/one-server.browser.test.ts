/**
 * ONE glove-server (real socket on 127.0.0.1, SQLite, scripted model) and the three frontends in
 * one Chromium, as one user: the glove-react page (native routes), the assistant-ui page (AG-UI
 * route) and the AI SDK useChat page (GloveChatTransport) each stream an answer, regenerate it and
 * allow a tool through Glove's permission prompt. Then, on the server: three separate, valid
 * conversations, each with its regenerated answer on a branch — and a conversation begun in one
 * frontend is read and continued in another.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext } from "playwright-core";
import { browserTestHooks, launchChromium } from "../../web-chat/test/support/browser.js";
import * as gloveReact from "../../web-chat/test/support/page.js";
import * as useChat from "../../use-chat/test/support/page.js";
import { Gates, OPENED_TEXT, WAITING_TEXT, gatedAgent } from "../../use-chat/test/support/gated-agent.js";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../test-support/timeouts.js";
import { startInterop, type Interop } from "../src/app.js";
import { buildPages, problemsIn, type StoredMessage } from "./support/pages.js";

let dir: string;
let app: Interop;
let browser: Browser;
let context: BrowserContext;
let gates: Gates;
const pageErrors: Error[] = [];
/** Each frontend's conversation id, as its page named it. */
const started: { gloveReact?: string; assistantUi?: string; useChat?: string } = {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "glove-interop-"));
  [, browser] = await Promise.all([buildPages(join(dir, "pages")), launchChromium()]);
  // "wait for <gate>" streams a text, then holds the turn running until the test opens the gate;
  // "count" answers "Answer <n>" (n counts the conversation's answers, so a regenerated one differs);
  // "email <who>" calls send_email, which asks for permission.
  app = await startInterop({
    port: 0,
    dataDir: join(dir, "data"),
    pagesDir: join(dir, "pages"),
    agent: gatedAgent((gates = new Gates())),
  });
  context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
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

/** Polls until the assertion holds, as long as a loaded machine may need. */
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: PROMPT_WAIT_MS, interval: 50 });

/** The server's JSON at `path` below /api, read with the browser's own cookie (the pages' user). */
async function api<T>(path: string): Promise<T> {
  const response = await context.request.get(`${app.url}/api${path}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as T;
}

const snapshot = (id: string) => api<{ busy: boolean; messages: StoredMessage[] }>(`/conversations/${id}`);
const branches = (id: string) => api<{ messages: StoredMessage[]; points: unknown[] }>(`/conversations/${id}/branches`);
const sentTo = (who: string) => app.outbox.filter((email) => email.to === who).length;

/**
 * Streaming, as each page shows it: the turn's first words are on the page while the turn still
 * runs on the server (its tool waits at `gate`); opened, the rest of the answer follows.
 */
async function streams(
  gate: string,
  conversationId: () => Promise<string> | string,
  shows: (text: string) => Promise<unknown>,
): Promise<void> {
  await shows(WAITING_TEXT);
  expect((await snapshot(await conversationId())).busy).toBe(true);
  gates.open(gate);
  await shows(OPENED_TEXT);
}

describe("one glove-server, three frontends in one browser", () => {
  it(
    "glove-react: streams, regenerates, and an allowed tool runs once",
    async () => {
      const page = await gloveReact.openPage(context, `${app.url}/glove-react/`, pageErrors);
      await gloveReact.send(page, "wait for glove-react");
      await streams(
        "glove-react",
        () => gloveReact.conversationOf(page),
        (text) => gloveReact.transcript(page).getByText(text).first().waitFor(),
      );
      await gloveReact.agentSaid(page, OPENED_TEXT).waitFor();
      await gloveReact.send(page, "count please");
      await gloveReact.agentSaid(page, "Answer 1.").waitFor();
      await page.getByRole("button", { name: "Regenerate" }).click();
      await gloveReact.agentSaid(page, "Answer 2.").waitFor();
      expect(await gloveReact.agentSaid(page, "Answer 1.").count()).toBe(0);
      expect(await gloveReact.agentSaid(page, "Answer 2.").getByTestId("branch-position").innerText()).toBe("2/2");

      await gloveReact.send(page, "Please email ada");
      const prompt = page.locator('[data-glove-role="permission-request"]');
      await poll(() => prompt.innerText()).toContain("send_email");
      expect(sentTo("ada")).toBe(0);
      await prompt.getByRole("button", { name: "Allow" }).click();
      await gloveReact.agentSaid(page, "Done: the email to ada is sent.").waitFor();
      expect(sentTo("ada")).toBe(1);
      started.gloveReact = await gloveReact.conversationOf(page);
      await page.close();
    },
    SLOW_WORK_MS,
  );

  it(
    "assistant-ui over AG-UI: streams, regenerates, and an allowed tool runs once",
    async () => {
      const page = await context.newPage();
      page.on("pageerror", (error) => pageErrors.push(error));
      page.on("request", (request) => {
        if (new URL(request.url()).pathname === "/api/ag-ui")
          started.assistantUi = (request.postDataJSON() as { threadId: string }).threadId;
      });
      await page.goto(`${app.url}/assistant-ui/`);
      const lastAnswer = () => page.locator('[data-role="assistant"]').last().locator(".content").innerText();
      await page.getByLabel("Message").fill("wait for assistant-ui");
      await page.getByRole("button", { name: "Send" }).click();
      await streams(
        "assistant-ui",
        () => started.assistantUi!,
        (text) => poll(lastAnswer).toContain(text),
      );
      await page.getByLabel("Message").fill("count please");
      await page.getByRole("button", { name: "Send" }).click();
      await poll(lastAnswer).toBe("Answer 1.");
      await page.locator('[data-role="assistant"]').last().getByRole("button", { name: "Regenerate" }).click();
      await poll(lastAnswer).toBe("Answer 2.");
      await poll(() => page.locator('[data-role="assistant"]').last().getByLabel("Branches").innerText()).toMatch(
        /2\s*\/\s*2/,
      );

      await page.getByLabel("Message").fill("Please email bob");
      await page.getByRole("button", { name: "Send" }).click();
      const prompt = page.getByRole("dialog", { name: "Permission" });
      await poll(() => prompt.innerText()).toContain("Allow send_email to run?");
      expect(sentTo("bob")).toBe(0);
      await prompt.getByRole("button", { name: "Allow" }).click();
      await poll(lastAnswer).toBe("Done: the email to bob is sent.");
      expect(sentTo("bob")).toBe(1);
      await page.close();
    },
    SLOW_WORK_MS,
  );

  it(
    "useChat: streams, regenerates, and an approved tool runs once",
    async () => {
      const page = await useChat.openChat(context, `${app.url}/use-chat/`, pageErrors);
      await useChat.send(page, "wait for use-chat");
      await streams(
        "use-chat",
        () => useChat.chatIdOf(page),
        (text) => useChat.assistantSaid(page, text).waitFor(),
      );
      await useChat.statusIs(page, "ready");
      await useChat.send(page, "count please");
      await useChat.assistantSaid(page, "Answer 1.").waitFor();
      await useChat.statusIs(page, "ready");
      await page.getByRole("button", { name: "Regenerate" }).click();
      await useChat.assistantSaid(page, "Answer 2.").waitFor();
      expect(await useChat.assistantSaid(page, "Answer 1.").count()).toBe(0);

      await useChat.statusIs(page, "ready");
      await useChat.send(page, "Please email cy");
      const asking = useChat.toolPart(page, "send_email", "approval-requested");
      await asking.waitFor();
      expect(sentTo("cy")).toBe(0);
      await asking.getByRole("button", { name: "Approve" }).click();
      await useChat.assistantSaid(page, "Done: the email to cy is sent.").waitFor();
      await useChat.statusIs(page, "ready");
      expect(sentTo("cy")).toBe(1);
      started.useChat = useChat.chatIdOf(page);
      await page.close();
    },
    SLOW_WORK_MS,
  );

  it(
    "the server holds three separate, valid conversations, each with its first answer on a branch",
    async () => {
      const ids = [started.gloveReact!, started.assistantUi!, started.useChat!];
      expect(new Set(ids).size).toBe(3);
      const listed = await api<{ conversations: Array<{ id: string; agent: string }> }>("/conversations?limit=50");
      expect(listed.conversations.map((c) => c.id).sort()).toEqual([...ids].sort());
      expect(listed.conversations.every((c) => c.agent === "assistant")).toBe(true);

      for (const [id, gate, who] of [
        [ids[0]!, "glove-react", "ada"],
        [ids[1]!, "assistant-ui", "bob"],
        [ids[2]!, "use-chat", "cy"],
      ] as const) {
        await poll(async () => (await snapshot(id)).busy).toBe(false);
        const { messages } = await snapshot(id);
        expect(problemsIn(messages)).toEqual([]);
        expect(messages.filter((m) => m.sender === "user" && !m.tool_results?.length).map((m) => m.text)).toEqual([
          `wait for ${gate}`,
          "count please",
          `Please email ${who}`,
        ]);
        expect(messages.filter((m) => m.sender === "agent").map((m) => m.text)).toEqual([
          WAITING_TEXT,
          OPENED_TEXT,
          "Answer 2.",
          "I will send it once you allow it.",
          `Done: the email to ${who} is sent.`,
        ]);
        const results = messages.flatMap((m) => m.tool_results ?? []);
        expect(results.map((r) => [r.tool_name, r.result.status])).toEqual([
          ["wait_for_gate", "success"],
          ["send_email", "success"],
        ]);
        expect((await branches(id)).points).toHaveLength(1);
      }
      expect(app.outbox.map((email) => email.to).sort()).toEqual(["ada", "bob", "cy"]);
    },
    SLOW_WORK_MS,
  );

  it(
    "a useChat conversation opens in the glove-react page with its branches, goes on there, and useChat reads the rest",
    async () => {
      const id = started.useChat!;
      const page = await gloveReact.openPage(context, `${app.url}/glove-react/?c=${id}`, pageErrors);
      await gloveReact.agentSaid(page, "Done: the email to cy is sent.").waitFor();
      const answer = gloveReact.agentSaid(page, "Answer 2.");
      expect(await answer.getByTestId("branch-position").innerText()).toBe("2/2");
      // The branch useChat's regenerate set aside is there to switch to.
      await answer.getByRole("button", { name: "Previous version" }).click();
      await gloveReact.agentSaid(page, "Answer 1.").waitFor();
      await poll(async () => (await branches(id)).messages.map((m) => m.text).slice(-2)).toEqual([
        "count please",
        "Answer 1.",
      ]);
      await gloveReact.agentSaid(page, "Answer 1.").getByRole("button", { name: "Next version" }).click();
      await gloveReact.agentSaid(page, "Done: the email to cy is sent.").waitFor();
      await gloveReact.send(page, "What is the weather in Oslo?");
      await gloveReact.agentSaid(page, "The weather in Oslo:").waitFor();
      await page.close();

      const chat = await useChat.openChat(context, `${app.url}/use-chat/?chat=${id}`, pageErrors);
      await useChat.assistantSaid(chat, "The weather in Oslo:").waitFor();
      await useChat.toolPart(chat, "get_weather", "output-available").waitFor();
      // The text of each user message (the page puts an Edit button beside it).
      expect(await chat.locator('li[data-role="user"] > p').allInnerTexts()).toEqual([
        "wait for use-chat",
        "count please",
        "Please email cy",
        "What is the weather in Oslo?",
      ]);
      await chat.close();
    },
    SLOW_WORK_MS,
  );

  it(
    "an AG-UI thread is a glove conversation: the glove-react and useChat pages read it",
    async () => {
      const id = started.assistantUi!;
      const page = await gloveReact.openPage(context, `${app.url}/glove-react/?c=${id}`, pageErrors);
      await gloveReact.agentSaid(page, "Done: the email to bob is sent.").waitFor();
      expect(await gloveReact.agentSaid(page, "Answer 2.").getByTestId("branch-position").innerText()).toBe("2/2");
      await page.close();

      const chat = await useChat.openChat(context, `${app.url}/use-chat/?chat=${id}`, pageErrors);
      await useChat.assistantSaid(chat, "Done: the email to bob is sent.").waitFor();
      await useChat.toolPart(chat, "send_email", "output-available").waitFor();
      await chat.close();
    },
    SLOW_WORK_MS,
  );
});
