import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { Glove, MemoryStore } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import {
  appendItems,
  DatasetError,
  defineDataset,
  itemFromConversation,
  loadDataset,
  type EvalItemInput,
} from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "glove-evals-data-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe("loadDataset", () => {
  it("reads JSONL (blank and // lines skipped) and JSON; the version is the file's content hash", async () => {
    const jsonl = file(
      "a.jsonl",
      '// bookings\n{"id":"one","input":"Hi"}\n\n{"input":["Book","For two"],"metadata":{"tag":"x"}}\n',
    );
    const dataset = await loadDataset(jsonl);
    expect(dataset.name).toBe("a");
    expect(dataset.items.map((i) => i.id)).toEqual(["one", expect.stringMatching(/^item-[0-9a-f]{12}$/)]);
    expect(dataset.version).toMatch(/^sha256:[0-9a-f]{16}$/);
    const json = file("b.json", JSON.stringify({ items: [{ id: "one", input: "Hi" }] }));
    expect((await loadDataset(json)).items).toEqual([{ id: "one", input: "Hi" }]);
    writeFileSync(jsonl, readFileSync(jsonl, "utf8") + '{"input":"more"}\n');
    expect((await loadDataset(jsonl)).version).not.toBe(dataset.version);
  });

  it("a malformed line is a DatasetError naming the file and line, and nothing loads; skipInvalid runs the rest", async () => {
    const path = file(
      "bad.jsonl",
      '{"id":"ok","input":"Hi"}\n{"id":"x","input":""}\nnot json\n{"id":"ok","input":"dup"}\n',
    );
    const error = await loadDataset(path).catch((e: unknown) => e);
    expect(DatasetError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ file: path, line: 2, code: "GLOVE_EVAL_DATASET" });
    expect((error as Error).message).toContain(`${path}:2: input`);
    await expect(loadDataset(path, { skipInvalid: true })).rejects.toMatchObject({
      line: 4,
      message: expect.stringContaining('id "ok" is already used on line 1'),
    });
    const partial = await loadDataset(
      file("partial.jsonl", '{"id":"ok","input":"Hi"}\nnot json\n{"input":"x","extra":1}\n'),
      { skipInvalid: true },
    );
    expect(partial.items.map((i) => i.id)).toEqual(["ok"]);
    expect(partial.skipped.map((e) => e.line)).toEqual([2, 3]);
  });

  it("in a .json array the error names the line the item starts on", async () => {
    const path = file("lines.json", '[\n  {"input": "fine"},\n  {\n    "input": 3\n  }\n]\n');
    await expect(loadDataset(path)).rejects.toMatchObject({ line: 3 });
  });

  it("property: whatever a line holds, loading either succeeds or throws a DatasetError with a line in the file", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.json(), fc.string()), { minLength: 1, maxLength: 5 }), async (lines) => {
        const path = file("prop.jsonl", lines.map((l) => l.replace(/[\r\n]/g, " ")).join("\n"));
        try {
          await loadDataset(path);
        } catch (error) {
          expect(DatasetError.isInstance(error)).toBe(true);
          expect((error as DatasetError).line).toBeGreaterThanOrEqual(1);
          expect((error as DatasetError).line).toBeLessThanOrEqual(lines.length);
        }
      }),
    );
  });

  it("defineDataset: the version follows the content, not the key order", () => {
    const a = defineDataset("d", [{ id: "1", input: "x", metadata: { a: 1, b: 2 } }]);
    const b = defineDataset("d", [{ metadata: { b: 2, a: 1 }, input: "x", id: "1" }]);
    expect(a.version).toBe(b.version);
    expect(defineDataset("d", [{ id: "1", input: "y" }]).version).not.toBe(a.version);
  });
});

describe("itemFromConversation", () => {
  it("turns a stored conversation into an item, through the redaction hook, appended to a dataset file", async () => {
    const store = new MemoryStore("conv-1");
    const agent = new Glove({
      store,
      model: new ScriptedModel([
        { toolCalls: [{ name: "lookup", input: { email: "ada@example.com" } }] },
        { text: "Found Ada's booking." },
        { text: "Bye." },
      ]),
      systemPrompt: "s",
      builtIns: { tasks: false, inbox: false },
    })
      .fold({ name: "lookup", description: "d", do: async () => "ok" })
      .build();
    await agent.processRequest("Find the booking of ada@example.com");
    await agent.processRequest("Thanks");
    const redact = (item: EvalItemInput): EvalItemInput =>
      JSON.parse(
        JSON.stringify(item)
          .replace(/[\w.]+@[\w.]+/g, "<email>")
          .replace(/Ada/g, "<name>"),
      ) as EvalItemInput;
    const item = await itemFromConversation(store, "conv-1", { redact });
    expect(item).toEqual({
      id: "conv-conv-1",
      input: ["Find the booking of <email>", "Thanks"],
      expected: { output: "Bye.", toolCalls: [{ name: "lookup", args: { email: "<email>" } }] },
      metadata: { conversationId: "conv-1" },
    });
    const path = join(dir, "from-conv.jsonl");
    await appendItems(path, [item!]);
    expect((await loadDataset(path)).items).toEqual([item]);
    expect(await itemFromConversation(store, "conv-1", { redact: () => null })).toBeNull();
    await expect(itemFromConversation(store, "conv-1", {} as never)).rejects.toThrow(/needs a redact hook/);
  });
});
