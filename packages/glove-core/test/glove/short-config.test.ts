import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ConfigurationError,
  DEFAULT_COMPACTION_INSTRUCTIONS,
  Displaymanager,
  Glove,
  type GloveConfig,
} from "glove-core";
import { RecordingSubscriber, ScriptedModel } from "glove-core/testing";

/** `new Glove({ model, systemPrompt })`: the display manager and compaction settings have defaults. */
describe("Glove with only model and systemPrompt", () => {
  it("runs a request with a tool call", async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ name: "price_of", input: { item: "espresso" } }] },
      { text: "2.20 euros." },
    ]);
    const prices = new Map([["espresso", 2.2]]);
    const glove = new Glove({ model, systemPrompt: "You run a coffee shop." })
      .fold({
        name: "price_of",
        description: "A price.",
        inputSchema: z.object({ item: z.string() }),
        do: async ({ item }) => prices.get(item),
      })
      .build();

    const result = await glove.processRequest("How much is an espresso?");
    expect(result.text).toBe("2.20 euros.");
    const results = (await glove.store.getMessages()).flatMap((m) => m.tool_results ?? []);
    expect(results[0]?.result).toEqual({ status: "success", data: 2.2 });
    expect(glove.displayManager).toBeInstanceOf(Displaymanager);
  });

  it("compacts with the default instructions when asked, and at the default context limit", async () => {
    const model = new ScriptedModel([
      { text: "hi" },
      { text: "a forced summary" },
      { text: "a big answer", tokens_in: 99_000, tokens_out: 2_000 },
      { text: "a summary at the limit" },
    ]);
    const events = new RecordingSubscriber();
    const glove = new Glove({ model, systemPrompt: "p" }).addSubscriber(events).build();

    await glove.processRequest("hello");
    await glove.controls.forceCompaction();
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({
      text: DEFAULT_COMPACTION_INSTRUCTIONS,
      is_compaction_request: true,
    });

    // 101 000 tokens of context passes the default limit of 100 000.
    await glove.processRequest("tell me everything");
    expect(model.requests[3]!.messages.at(-1)?.text).toBe(DEFAULT_COMPACTION_INSTRUCTIONS);
    expect(events.ofType("compaction_end").map((e) => e.summary_message.text)).toEqual([
      expect.stringContaining("a forced summary"),
      expect.stringContaining("a summary at the limit"),
    ]);
  });

  it("keeps the defaults for what a partial compaction_config leaves out", async () => {
    const model = new ScriptedModel([{ text: "one" }, { text: "summary" }]);
    const glove = new Glove({ model, systemPrompt: "p", compaction_config: { max_turns: 1 } }).build();
    await glove.processRequest("hello");
    expect(model.requests[1]!.messages.at(-1)?.text).toBe(DEFAULT_COMPACTION_INSTRUCTIONS);
  });

  it("runs a pushAndWait tool on the default display manager, answered through glove.displayManager", async () => {
    const model = new ScriptedModel([{ toolCalls: [{ name: "ask_age", input: {} }] }, { text: "Thanks." }]);
    const glove = new Glove({ model, systemPrompt: "Ask for the user's age." })
      .fold({
        name: "ask_age",
        description: "Asks the user's age.",
        resolveSchema: z.object({ age: z.number() }),
        do: async (_input, display) =>
          display.pushAndWait({ renderer: "age_form", input: { question: "How old are you?" } }),
      })
      .build();
    glove.displayManager.subscribe((stack) => {
      for (const slot of stack) if (slot.renderer === "age_form") glove.displayManager.resolve(slot.id, { age: 40 });
    });

    await glove.processRequest("Sign me up");
    const results = (await glove.store.getMessages()).flatMap((m) => m.tool_results ?? []);
    expect(results[0]?.result).toEqual({ status: "success", data: { age: 40 } });
  });

  it("refuses a compaction_config or displayManager of the wrong kind, saying what to pass", () => {
    const model = new ScriptedModel();
    const wrong: Array<[Partial<GloveConfig>, RegExp]> = [
      [{ compaction_config: "Summarize." as never }, /compaction_config must be an object/],
      [
        { compaction_config: { compaction_instructions: 42 as never } },
        /compaction_instructions must be a string, or left out/,
      ],
      [{ displayManager: "dm" as never }, /displayManager must be a DisplayManagerAdapter/],
    ];
    for (const [extra, message] of wrong) {
      let error: unknown;
      try {
        new Glove({ model, systemPrompt: "p", ...extra });
      } catch (caught) {
        error = caught;
      }
      expect(ConfigurationError.isInstance(error), String(message)).toBe(true);
      expect((error as Error).message).toMatch(message);
    }
  });
});
