import { ScriptedModel } from "glove-core/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NotesFile } from "../src/notes-file.js";
import { TerminalUi, type Prompter } from "../src/terminal-ui.js";
import { deleteNoteTool } from "../src/tools/delete-note.js";
import { captureStream, scriptedAgent, tempDir } from "./helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

/** A prompter that answers from a list and remembers the questions. */
function answering(...answers: string[]): Prompter & { questions: string[] } {
  const questions: string[] = [];
  return {
    questions,
    async ask(question) {
      questions.push(question);
      return answers.shift() ?? "";
    },
  };
}

/** A real agent whose scripted model calls delete_note(id) once per request. */
async function setup(prompter: Prompter) {
  const model = new ScriptedModel([], {
    fallback: (request) => {
      const last = request.messages.at(-1);
      if (last?.tool_results?.length) return { text: String(last.tool_results[0]?.result.message ?? "ok") };
      return { toolCalls: [{ name: "delete_note", input: { id: Number(last?.text) } }] };
    },
  });
  const agent = scriptedAgent(dir, model);
  const out = captureStream();
  const ui = new TerminalUi(out.stream, prompter);
  agent.glove.addSubscriber(ui);
  ui.watch(agent.display);
  await agent.notes.add("keep me?");
  await agent.notes.add("and me?");
  return { agent, out };
}

describe("delete_note", () => {
  it("is declared as needing permission", () => {
    expect(deleteNoteTool(new NotesFile(dir)).requiresPermission).toBe(true);
  });

  it("does not run when the user says no (the default)", async () => {
    const prompter = answering("");
    const { agent, out } = await setup(prompter);
    await agent.glove.processRequest("1");
    expect(prompter.questions).toEqual(["Allow delete_note? [y/N/always] "]);
    expect(await agent.notes.list()).toHaveLength(2);
    expect(out.text()).toContain("permission denied");
    expect(out.text()).toMatch(/delete_note error: The user declined/);
  });

  it("runs when the user says y, and asks again next time", async () => {
    const prompter = answering("y", "yes");
    const { agent } = await setup(prompter);
    await agent.glove.processRequest("1");
    await agent.glove.processRequest("2");
    expect(prompter.questions).toHaveLength(2);
    expect(await agent.notes.list()).toEqual([]);
  });

  it('remembers "always" in the store', async () => {
    const prompter = answering("always");
    const { agent, out } = await setup(prompter);
    await agent.glove.processRequest("1");
    await agent.glove.processRequest("2");
    expect(prompter.questions).toHaveLength(1);
    expect(await agent.glove.store.getPermission?.("delete_note")).toBe("granted");
    expect(await agent.notes.list()).toEqual([]);
    expect(out.text()).toContain("permission granted (remembered)");
  });

  it("reports a missing note as a tool error", async () => {
    const { agent, out } = await setup(answering("y"));
    await agent.glove.processRequest("99");
    expect(out.text()).toContain("There is no note #99");
  });
});
