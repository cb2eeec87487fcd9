import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Displaymanager, Glove, MemoryStore } from "glove-core";
import { RecordingSubscriber, ScriptedModel } from "glove-core/testing";

describe("agent loop smoke", () => {
  it("runs a tool turn then answers", async () => {
    const model = new ScriptedModel([
      { text: "Let me check.", toolCalls: [{ name: "add", input: { a: 2, b: 3 } }] },
      { text: "It is 5." },
    ]);
    const events = new RecordingSubscriber();
    const store = new MemoryStore("s1");
    const glove = new Glove({
      store,
      model,
      displayManager: new Displaymanager(),
      systemPrompt: "You add.",
      compaction_config: { compaction_instructions: "Summarize." },
    })
      .fold({
        name: "add",
        description: "Add two numbers",
        inputSchema: z.object({ a: z.number(), b: z.number() }),
        async do(input) {
          return { status: "success", data: input.a + input.b };
        },
      })
      .addSubscriber(events)
      .build();
    const result = await glove.processRequest("what is 2+3?");
    expect("messages" in result && result.messages[0]?.text).toBe("It is 5.");
    const history = await store.getMessages();
    expect(history.map((m) => m.sender)).toEqual(["user", "agent", "user", "agent"]);
    expect(history[2]?.tool_results?.[0]?.result).toEqual({ status: "success", data: 5 });
    expect(events.types()).toContain("tool_use_result");
    expect(model.requests[1]?.systemPrompt).toContain("You add.");
  });
});
