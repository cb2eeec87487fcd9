import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Displaymanager, Glove, MemoryStore, type Message } from "glove-core";
import { RecordingSubscriber, ScriptedModel } from "glove-core/testing";

function agent(model: ScriptedModel) {
  const recorder = new RecordingSubscriber();
  const glove = new Glove({
    store: new MemoryStore("s"),
    model,
    displayManager: new Displaymanager(),
    systemPrompt: "",
    compaction_config: { compaction_instructions: "" },
  })
    .fold({ name: "t", description: "t", do: async () => "ok" })
    .addSubscriber(recorder)
    .build();
  return { glove, recorder };
}

describe("tool-call ids are unique and non-empty before anything sees them", () => {
  it("property: whatever ids a model sends, subscribers, history and the provider see unique non-empty ids that pair calls with results", async () => {
    const idChoice = fc.constantFrom("", "call_0", "call_1", "x");
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(idChoice, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
        async (turns) => {
          const model = new ScriptedModel([
            ...turns.map((ids) => ({ toolCalls: ids.map((id) => ({ name: "t", input: {}, id })) })),
            { text: "done" },
          ]);
          const { glove, recorder } = agent(model);
          await glove.processRequest("go");
          const history: Message[] = await glove.store.getMessages();
          const calls = history.flatMap((m) => m.tool_calls ?? []).map((c) => c.id);
          expect(calls.every((id) => typeof id === "string" && id !== "")).toBe(true);
          expect(new Set(calls).size).toBe(calls.length);
          const results = history.flatMap((m) => m.tool_results ?? []).map((r) => r.call_id);
          expect(results).toEqual(calls);
          // Events carried the same ids as the history, never an empty or repeated one.
          const announced = recorder.events.filter((e) => e.type === "tool_use").map((e) => (e as { id?: string }).id);
          expect(announced).toEqual(calls);
          const completed = recorder.events
            .filter((e) => e.type === "model_response_complete")
            .flatMap((e) => ((e as { tool_calls?: Array<{ id?: string }> }).tool_calls ?? []).map((c) => c.id));
          expect(completed).toEqual(calls);
          // The last request the provider got holds every call once.
          const sent = model.requests
            .at(-1)!
            .messages.flatMap((m) => m.tool_calls ?? [])
            .map((c) => c.id);
          expect(sent).toEqual(calls);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("keeps a model's own unique ids as they are", async () => {
    const model = new ScriptedModel([
      {
        toolCalls: [
          { name: "t", input: {}, id: "toolu_1" },
          { name: "t", input: {}, id: "toolu_2" },
        ],
      },
      { text: "" },
    ]);
    const { glove } = agent(model);
    await glove.processRequest("go");
    expect((await glove.store.getMessages()).flatMap((m) => m.tool_calls ?? []).map((c) => c.id)).toEqual([
      "toolu_1",
      "toolu_2",
    ]);
  });
});

describe("token counts from third-party adapters", () => {
  it.each([
    [-5, 0],
    [12.6, 13],
    [Number.NaN, 0],
    [1e300, 2 ** 31 - 1],
  ])("%s is kept as %s, so the store accepts it and the turn goes on", async (reported, kept) => {
    const store = new MemoryStore("s");
    const model = {
      name: "odd",
      setSystemPrompt: () => undefined,
      prompt: async () => ({
        messages: [{ sender: "agent" as const, text: "hi" }],
        tokens_in: reported,
        tokens_out: 1,
      }),
    };
    const glove = new Glove({
      store,
      model,
      displayManager: new Displaymanager(),
      systemPrompt: "",
      compaction_config: { compaction_instructions: "", compaction_context_limit: 2 ** 40 },
    }).build();
    const result = await glove.processRequest("go");
    expect("tokens_in" in result && result.tokens_in).toBe(kept);
    expect((await store.getMessages()).at(-1)?.text).toBe("hi");
  });
});
