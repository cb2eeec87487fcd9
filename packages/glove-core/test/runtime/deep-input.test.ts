import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Displaymanager, Glove, MemoryStore } from "glove-core";
import { RecordingSubscriber, ScriptedModel } from "glove-core/testing";

function deep(levels: number): unknown {
  let value: unknown = "leaf";
  for (let i = 0; i < levels; i++) value = { next: value };
  return value;
}

describe("deeply nested tool input", () => {
  it("never overflows the stack: the call gets an error result and the conversation stays valid", async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ name: "t", input: deep(50_000), id: "c1" }] },
      { text: "I'll send flatter arguments." },
    ]);
    const store = new MemoryStore("s");
    const recorder = new RecordingSubscriber();
    const glove = new Glove({
      store,
      model,
      displayManager: new Displaymanager(),
      systemPrompt: "",
      compaction_config: { compaction_instructions: "" },
    })
      .fold({ name: "t", description: "t", inputSchema: z.object({ next: z.unknown() }), do: async () => "ran" })
      .addSubscriber(recorder)
      .build();
    await glove.processRequest("go");
    const messages = await store.getMessages();
    const result = messages.flatMap((m) => m.tool_results ?? [])[0]!;
    expect(result.result.status).toBe("error");
    expect(result.result.message ?? String(result.result.data)).toMatch(/not valid JSON|nested deeper/);
    expect(() => JSON.stringify(messages)).not.toThrow();
    expect(() => JSON.stringify(recorder.events)).not.toThrow();
    expect(messages.at(-1)?.text).toBe("I'll send flatter arguments.");
  });

  it("keeps ordinary nesting untouched", async () => {
    const model = new ScriptedModel([{ toolCalls: [{ name: "t", input: deep(20), id: "c1" }] }, { text: "" }]);
    const glove = new Glove({
      store: new MemoryStore("s"),
      model,
      displayManager: new Displaymanager(),
      systemPrompt: "",
      compaction_config: { compaction_instructions: "" },
    })
      .fold({ name: "t", description: "t", do: async () => "ran" })
      .build();
    await glove.processRequest("go");
    expect((await glove.store.getMessages()).flatMap((m) => m.tool_results ?? [])[0]!.result.data).toBe("ran");
  });
});
