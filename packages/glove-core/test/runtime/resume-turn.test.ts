import { describe, expect, it } from "vitest";
import { Displaymanager, Glove, MemoryStore, type Message, type ModelAdapter } from "glove-core";
import { ScriptedModel } from "glove-core/testing";

function glove(store: MemoryStore, model: ModelAdapter, runs: string[]) {
  return new Glove({
    store,
    model,
    displayManager: new Displaymanager(),
    systemPrompt: "test",
    compaction_config: { compaction_instructions: "Summarize." },
  })
    .fold({
      name: "lookup",
      description: "Reads.",
      rerunOnRecovery: true,
      do: async () => (runs.push("lookup"), "found"),
    })
    .fold({ name: "charge", description: "Charges a card.", do: async () => (runs.push("charge"), "charged") })
    .build();
}

const calls: Message = {
  sender: "agent",
  text: "",
  tool_calls: [
    { tool_name: "lookup", input_args: {}, id: "c1" },
    { tool_name: "charge", input_args: {}, id: "c2" },
  ],
};

describe("Glove.continueTurn (a turn taken over after its process died)", () => {
  it("re-runs calls of tools marked rerunOnRecovery, answers the others as interrupted, then asks the model", async () => {
    const store = new MemoryStore("s");
    await store.appendMessages([{ sender: "user", text: "buy it" }, calls]);
    const runs: string[] = [];
    const model = new ScriptedModel([{ text: "Done." }]);
    const result = await glove(store, model, runs).continueTurn!();
    expect(runs).toEqual(["lookup"]);
    const messages = await store.getMessages();
    const results = messages[2]!.tool_results!;
    expect(results.map((r) => [r.call_id, r.result.status])).toEqual([
      ["c1", "success"],
      ["c2", "aborted"],
    ]);
    expect(results[1]!.result.message).toMatch(/did not finish/);
    expect(messages.at(-1)).toMatchObject({ sender: "agent", text: "Done." });
    expect(result.messages.at(-1)?.text).toBe("Done.");
  });

  it("does not ask the model again when the answer is already stored", async () => {
    const store = new MemoryStore("s");
    await store.appendMessages([
      { sender: "user", text: "hi" },
      { sender: "agent", text: "Hello." },
    ]);
    const model = new ScriptedModel([{ text: "A second answer (must not happen)." }]);
    const result = await glove(store, model, []).continueTurn!();
    expect(result.messages[0]?.text).toBe("Hello.");
    expect((await store.getMessages()).length).toBe(2);
  });

  it("answers a stored user message that has no answer yet", async () => {
    const store = new MemoryStore("s");
    await store.appendMessages([{ sender: "user", text: "hi" }]);
    await glove(store, new ScriptedModel([{ text: "Hello." }]), []).continueTurn!();
    expect((await store.getMessages()).map((m) => m.text)).toEqual(["hi", "Hello."]);
  });
});
