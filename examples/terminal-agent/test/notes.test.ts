import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NotesFile } from "../src/notes-file.js";
import { addNoteTool } from "../src/tools/add-note.js";
import { clearNotesTool, CONFIRM_RENDERER } from "../src/tools/clear-notes.js";
import { listNotesTool } from "../src/tools/list-notes.js";
import { runTool, scriptedAgent, tempDir } from "./helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

describe("NotesFile", () => {
  it("keeps notes in <dataDir>/notes.json, creating the directory on first write", async () => {
    const notes = new NotesFile(join(dir, "nested", ".glove"));
    expect(await notes.list()).toEqual([]);
    await notes.add("first");
    await notes.add("second");
    const onDisk = JSON.parse(await readFile(notes.path, "utf8")) as { notes: Array<{ id: number; text: string }> };
    expect(onDisk.notes.map((n) => [n.id, n.text])).toEqual([
      [1, "first"],
      [2, "second"],
    ]);
    // A new instance (a new run of the agent) sees the same notes.
    expect((await new NotesFile(notes.dataDir).list()).map((n) => n.text)).toEqual(["first", "second"]);
  });

  it("deletes by id, never reuses ids, and clears", async () => {
    const notes = new NotesFile(dir);
    await notes.add("a");
    await notes.add("b");
    expect(await notes.delete(1)).toMatchObject({ id: 1, text: "a" });
    expect(await notes.delete(1)).toBeUndefined();
    expect(await notes.add("c")).toMatchObject({ id: 3 });
    expect(await notes.clear()).toBe(2);
    expect(await notes.list()).toEqual([]);
  });

  it("gives concurrent adds distinct ids (tools of one turn run in parallel)", async () => {
    const notes = new NotesFile(dir);
    await Promise.all(["a", "b", "c", "d", "e"].map((t) => notes.add(t)));
    const ids = (await notes.list()).map((n) => n.id).sort();
    expect(ids).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("note tools", () => {
  it("add_note and list_notes go through the file", async () => {
    const agent = scriptedAgent(dir);
    expect(await runTool(agent, addNoteTool(agent.notes), { text: "  buy milk " })).toMatchObject({
      status: "success",
      data: "Saved note #1: buy milk",
    });
    expect(await runTool(agent, listNotesTool(agent.notes), {})).toMatchObject({ data: "#1: buy milk" });
    expect(() => runTool(agent, addNoteTool(agent.notes), { text: "   " })).toThrow();
  });

  it("clear_notes asks for confirmation on the display stack", async () => {
    const agent = scriptedAgent(dir);
    await agent.notes.add("a");
    await agent.notes.add("b");
    const questions: unknown[] = [];
    let answer = false;
    agent.display.subscribe((stack) => {
      for (const slot of stack) {
        if (slot.renderer !== CONFIRM_RENDERER) continue;
        questions.push(slot.input);
        agent.display.resolve(slot.id, answer);
      }
    });
    const tool = clearNotesTool(agent.notes);
    expect(await runTool(agent, tool, {})).toMatchObject({ status: "error" });
    expect(await agent.notes.list()).toHaveLength(2);
    answer = true;
    expect(await runTool(agent, tool, {})).toMatchObject({ status: "success", data: "Cleared 2 notes." });
    expect(questions).toEqual([{ question: "Delete all 2 notes?" }, { question: "Delete all 2 notes?" }]);
  });
});
