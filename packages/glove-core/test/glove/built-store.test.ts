import { describe, expect, it } from "vitest";
import { ConfigurationError, Displaymanager, Glove, MemoryStore } from "glove-core";
import { ScriptedModel } from "glove-core/testing";

const make = (store = new MemoryStore("s")) =>
  new Glove({
    store,
    model: new ScriptedModel([{ text: "ok" }]),
    displayManager: new Displaymanager(),
    systemPrompt: "",
    compaction_config: { compaction_instructions: "" },
  });

describe("Glove.builtStore asks for the store without throwing", () => {
  it("is undefined before build, where reading store throws a ConfigurationError", () => {
    const glove = make();
    expect(glove.builtStore).toBeUndefined();
    expect(() => glove.store).toThrow(ConfigurationError);
  });

  it("is the store the agent persists to once built, and follows a rebuild", () => {
    const first = new MemoryStore("first");
    const glove = make(first).build();
    expect(glove.builtStore).toBe(first);
    expect(glove.builtStore).toBe(glove.store);
    const second = new MemoryStore("second");
    const rebuilt = glove.rebuild(second);
    expect(rebuilt.builtStore).toBe(second);
    expect(rebuilt.store).toBe(second);
  });
});
