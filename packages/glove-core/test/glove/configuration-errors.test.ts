import { describe, expect, it } from "vitest";
import { ConfigurationError, Displaymanager, Glove, MemoryStore } from "glove-core";
import { ScriptedModel } from "glove-core/testing";

const make = () =>
  new Glove({
    store: new MemoryStore("s"),
    model: new ScriptedModel([{ text: "ok" }]),
    displayManager: new Displaymanager(),
    systemPrompt: "",
    compaction_config: { compaction_instructions: "" },
  });

describe("configuration mistakes are ConfigurationErrors that name the field", () => {
  it.each([
    [[null], /request\[0\]/],
    [[{ type: "text", text: 42 }], /request\[0\]\.text/],
    [[{ text: "no type" }], /request\[0\]/],
    [{ text: "an object" }, /string or an array/],
  ])("processRequest(%j)", async (request, field) => {
    const glove = make().build();
    const error = await glove.processRequest(request as never).catch((e: unknown) => e);
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(field);
    expect(await glove.store.getMessages()).toEqual([]);
  });

  it("a tool whose inputSchema is not a zod schema is rejected at fold, not at the first call", () => {
    const fold = (inputSchema: unknown) => () =>
      make().fold({ name: "t", description: "t", inputSchema: inputSchema as never, do: async () => "x" });
    for (const bad of [{ type: "object", properties: {} }, "string", null]) {
      expect(fold(bad)).toThrow(ConfigurationError);
      expect(fold(bad)).toThrow(/inputSchema/);
    }
    expect(() => make().fold({ name: "t", description: "t", resolveSchema: {} as never, do: async () => "x" })).toThrow(
      /resolveSchema/,
    );
  });
});
