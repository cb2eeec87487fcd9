import { readFile } from "node:fs/promises";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runWalkthrough } from "../src/walkthrough.js";
import { captureStream, tempDir } from "./helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

describe("offline walkthrough", () => {
  it("plays the whole script non-interactively through the real runtime", async () => {
    const out = captureStream();
    await runWalkthrough({ input: new PassThrough(), output: out.stream, dataDir: dir });
    const text = out.text();

    expect(text).toContain('answering prompts with "y"');
    // Streamed text: several text_delta chunks printed as one agent line.
    expect(text).toContain("agent> Hi! I'm a Glove agent running in your terminal.");
    // The task list, created and then completed.
    expect(text).toMatch(/Tasks:\n {4}\[>\] Converting the amount\n {4}\[ \] Save the result as a note/);
    expect(text).toMatch(/Tasks:\n {4}\[x\] Convert the amount\n {4}\[x\] Save the result as a note/);
    // The conversion tool and notes.
    expect(text).toContain("<- convert_units: 42 km = 26.1 mi");
    expect(text).toContain("<- add_note: Saved note #1: Conversion: 42 km = 26.1 mi");
    expect(text).toContain("<- add_note: Saved note #2: buy new running shoes");
    // The permission prompt, answered.
    expect(text).toContain("Allow delete_note? [y/N/always] y   (auto-answered: stdin is not a TTY)");
    expect(text).toContain("<- delete_note: Deleted note #2: buy new running shoes");
    // Compaction, with the summary built from real tool results.
    expect(text).toMatch(/~~ compacting the conversation/);
    expect(text).toMatch(/compaction done[^\n]*\n {5}\[Summary of the conversation so far\][\s\S]*- Deleted note #2/);
    // The confirmation slot, then the end.
    expect(text).toContain("Delete your only note? [y/N] y");
    expect(text).toContain("<- clear_notes: Cleared 1 note.");
    expect(text).toContain("That was the offline walkthrough.");
    // Order: the permission prompt comes before the compaction, which comes before the last scene.
    expect(text.indexOf("Allow delete_note?")).toBeLessThan(text.indexOf("compacting"));
    expect(text.indexOf("compacting")).toBeLessThan(text.indexOf("== 5/5"));
    expect(text).not.toMatch(/error:/);

    const notes = JSON.parse(await readFile(`${dir}/notes.json`, "utf8")) as { notes: unknown[] };
    expect(notes.notes).toEqual([]);
  });

  it("reads the user's lines when interactive, and honours their answers", async () => {
    const input = new PassThrough();
    const out = captureStream();
    const replies = ["", "convert 10 mi to km", "note: call mom", "", "n", "exit"];
    // Answer each prompt only once it is shown, like a person would.
    out.stream.on("data", () => {
      if (/(you> |\[y\/N\/always\] |\[y\/N\] )$/.test(out.text()) && replies.length)
        input.write(`${replies.shift()}\n`);
    });
    await runWalkthrough({ input, output: out.stream, dataDir: dir, interactive: true, delayMs: 0 });
    const text = out.text();

    expect(text).toContain('suggested: "Hi! What can you do?"');
    expect(text).toContain("<- convert_units: 10 mi = 16.09 km");
    expect(text).toContain("Saved note #2: call mom");
    expect(text).toContain("permission denied");
    expect(text).toContain("I left the note alone");
    expect(text).toContain("== 5/5");
    expect(text).not.toContain("clear_notes");
    expect(replies).toEqual([]);
    const notes = JSON.parse(await readFile(`${dir}/notes.json`, "utf8")) as { notes: Array<{ text: string }> };
    expect(notes.notes.map((n) => n.text)).toEqual(["Conversion: 10 mi = 16.09 km", "call mom"]);
  });
});
