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
import type { TestServer } from "../../support/harness.js";
import { agUiAgent, runOnce, say, streamedText } from "./support/ag-ui-client.js";
import { startAgUiServer } from "./support/ag-ui-server.js";

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function twoTurns(script: Array<{ text: string }>) {
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
    const regenerate = await s.api("/ag-ui", {
      body: { threadId: agent.threadId, runId: "r-y", messages: waiting.slice(0, lastUser + 1) },
    });
    expect(regenerate.status).toBe(409);
  });
});
