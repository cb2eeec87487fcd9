/**
 * Regenerate and edit through AG-UI: the protocol has no such operations, so clients (assistant-ui's
 * reload and edit) send the conversation up to the point they branch from. The route reads that
 * against the thread's active branch and runs glove-server's regenerate or edit, keeping the old
 * answer as a branch; a page on another branch than the thread's active one gets a 409.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Message as AgUiMessage } from "@ag-ui/core";
import type { Message } from "glove-core";
import { memoryStorage } from "glove-server";
import type { AgentKit, TestServer } from "../../support/harness.js";
import { agUiAgent, runOnce, say, streamedText } from "./support/ag-ui-client.js";
import { startAgUiServer } from "./support/ag-ui-server.js";

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function twoTurns(script: AgentKit["script"]) {
  const s = await startAgUiServer({ store: memoryStorage(), script });
  servers.push(s);
  const agent = agUiAgent(s);
  await say(agent, "Hi");
  await say(agent, "What's good?");
  return { s, agent };
}

const activeTexts = async (s: TestServer, id: string) =>
  ((await s.api(`/conversations/${id}`)).body.messages as Message[]).map((m) => m.text);
const userMessage = (text: string): AgUiMessage => ({ id: crypto.randomUUID(), role: "user", content: text });

describe("AG-UI regenerate and edit", () => {
  it("the history up to the last user message again regenerates its answer; the old one stays as a branch", async () => {
    const { s, agent } = await twoTurns([{ text: "Hello." }, { text: "The soup." }, { text: "The trout." }]);
    const upToQuestion = agent.messages.slice(0, 3);
    expect(upToQuestion.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    agent.setMessages(upToQuestion);
    const again = await runOnce(agent, {});
    expect(again.error).toBeUndefined();
    expect(again.outcome).toBe("success");
    expect(streamedText(again)).toBe("The trout.");
    expect(await activeTexts(s, agent.threadId)).toEqual(["Hi", "Hello.", "What's good?", "The trout."]);
    const branches = (await s.api(`/conversations/${agent.threadId}/branches`)).body as { points: unknown[] };
    expect(branches.points).toHaveLength(1);
  });

  it("an earlier user message replaced (a new id and text) is an edit: the thread continues from it", async () => {
    const { s, agent } = await twoTurns([{ text: "Hello." }, { text: "The soup." }, { text: "Tomorrow at eight." }]);
    agent.setMessages([...agent.messages.slice(0, 2), userMessage("Can I book for tomorrow?")]);
    const edited = await runOnce(agent, {});
    expect(edited.error).toBeUndefined();
    expect(streamedText(edited)).toBe("Tomorrow at eight.");
    expect(await activeTexts(s, agent.threadId)).toEqual([
      "Hi",
      "Hello.",
      "Can I book for tomorrow?",
      "Tomorrow at eight.",
    ]);
    // The first message edited: everything after it is set aside.
    agent.setMessages([userMessage("Good evening")]);
    s.kit.script.push({ text: "Good evening to you." });
    const first = await runOnce(agent, {});
    expect(streamedText(first)).toBe("Good evening to you.");
    expect(await activeTexts(s, agent.threadId)).toEqual(["Good evening", "Good evening to you."]);
  });

  it("a new message sent from a branch the thread does not have active is a 409, not a turn after the other branch", async () => {
    const s = await startAgUiServer({
      store: memoryStorage(),
      script: [{ text: "one!" }, { text: "uno!" }, { text: "two!" }],
    });
    servers.push(s);
    const agent = agUiAgent(s);
    await say(agent, "echo T one");
    const branchOne = structuredClone(agent.messages);
    const [one] = (await s.api(`/conversations/${agent.threadId}`)).body.messages as Message[];
    // The page edits its message: the thread's active branch is now the edited one.
    agent.setMessages([userMessage("echo T uno")]);
    expect((await runOnce(agent, {})).error).toBeUndefined();
    expect(await activeTexts(s, agent.threadId)).toEqual(["echo T uno", "uno!"]);

    // The page's branch picker goes back to the first branch, and a message is sent from there.
    agent.setMessages([...branchOne, userMessage("echo T two")]);
    const fromOtherBranch = await runOnce(agent, {});
    expect(String(fromOtherBranch.error)).toMatch(/HTTP 409/);
    expect((fromOtherBranch.error as { payload?: unknown }).payload).toMatchObject({
      error: { code: "GLOVE_BRANCH_MISMATCH", message: expect.stringContaining("another branch") },
    });
    // No turn ran: the model never saw "two" after "uno".
    expect(await activeTexts(s, agent.threadId)).toEqual(["echo T uno", "uno!"]);

    // Switched to the page's branch, the same message is a new turn after it.
    expect((await s.api(`/conversations/${agent.threadId}/branches/${one!.id}`, { method: "POST" })).status).toBe(200);
    const sent = await runOnce(agent, {});
    expect(sent.error).toBeUndefined();
    expect(streamedText(sent)).toBe("two!");
    expect(await activeTexts(s, agent.threadId)).toEqual(["echo T one", "one!", "echo T two", "two!"]);
  });

  it("the page's messages stay in the thread's order through snapshots, so a new message after an interrupt is a turn", async () => {
    const { s, agent } = await twoTurns([
      { text: "Hello." },
      { text: "The soup." },
      { toolCalls: [{ name: "ask_age", input: { question: "Age?" }, id: "age-8" }] },
      { text: "Noted." },
      { text: "See you." },
    ]);
    const asked = await say(agent, "Register me");
    expect(asked.outcome).toBe("interrupt");
    // The interrupt's MESSAGES_SNAPSHOT names every message by the id the page knows it by.
    const inOrder = ["Hi", "Hello.", "What's good?", "The soup.", "Register me"];
    const texts = () => agent.messages.filter((m) => m.role === "user" || m.content).map((m) => m.content);
    expect(texts()).toEqual(inOrder);
    const resumed = await runOnce(agent, {
      resume: [{ interruptId: asked.interrupts[0]!.id, status: "resolved", payload: { age: 30 } }],
    });
    expect(resumed.outcome).toBe("success");
    const next = await say(agent, "Bye");
    expect(next.error).toBeUndefined();
    expect(streamedText(next)).toBe("See you.");
    expect(await activeTexts(s, agent.threadId)).toEqual([...inOrder, "", "", "Noted.", "Bye", "See you."]);
  });

  it("a page on another branch than the thread's gets a 409 that says so; a question waiting refuses a regenerate", async () => {
    const { s, agent } = await twoTurns([{ text: "Hello." }, { text: "The soup." }]);
    const other = await s.api("/ag-ui", {
      body: {
        threadId: agent.threadId,
        runId: "r-x",
        messages: [userMessage("Something else"), { id: "a1", role: "assistant", content: "…" }, userMessage("And?")],
      },
    });
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({
      code: "GLOVE_BRANCH_MISMATCH",
      message: expect.stringContaining("another branch"),
    });
    expect(await activeTexts(s, agent.threadId)).toEqual(["Hi", "Hello.", "What's good?", "The soup."]);

    s.kit.script.push({ toolCalls: [{ name: "ask_age", input: { question: "Age?" }, id: "age-9" }] });
    expect((await say(agent, "Register me")).outcome).toBe("interrupt");
    const waiting = agent.messages.filter((m) => m.role !== "tool");
    const lastUser = waiting.findLastIndex((m) => m.role === "user");
    // The last user message again, as a new message (a new id): a regenerate, refused while the question waits.
    const again = { ...waiting[lastUser]!, id: crypto.randomUUID() };
    const regenerate = await s.api("/ag-ui", {
      body: { threadId: agent.threadId, runId: "r-y", messages: [...waiting.slice(0, lastUser), again] },
    });
    expect(regenerate.status).toBe(409);
    expect(regenerate.body.error.code).toBe("GLOVE_WAITING_FOR_ANSWER");
  });
});
