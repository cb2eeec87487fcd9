import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  Displaymanager,
  DuplicateToolError,
  Glove,
  MemoryStore,
  SUBAGENT_DISPATCH_TOOL_NAME,
  type Tool,
} from "glove-core";
import { ScriptedModel } from "glove-core/testing";

const make = (model: ScriptedModel) =>
  new Glove({
    store: new MemoryStore("s"),
    model,
    displayManager: new Displaymanager(),
    systemPrompt: "",
    compaction_config: { compaction_instructions: "" },
  });

describe("the offered tool list never holds a duplicate name", () => {
  it("defining a subagent after folding the subagent tool's name throws DuplicateToolError", () => {
    const glove = make(new ScriptedModel()).fold({
      name: SUBAGENT_DISPATCH_TOOL_NAME,
      description: "mine",
      do: async () => "x",
    });
    expect(() =>
      glove.defineSubAgent({
        name: "helper",
        description: "h",
        factory: async () => make(new ScriptedModel()).build(),
      }),
    ).toThrow(DuplicateToolError);
    expect(() => glove.defineMention({ name: "helper", description: "h", handler: async () => "x" })).toThrow(
      DuplicateToolError,
    );
  });

  it("a plugin whose tools() later returns a taken name is shadowed, not sent twice", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const late: Tool[] = [];
    const model = new ScriptedModel([{ text: "ok" }]);
    const glove = make(model)
      .fold({ name: "search", description: "folded", inputSchema: z.object({}), do: async () => "folded" })
      .use({ name: "late", tools: () => late })
      .build();
    late.push({ name: "search", description: "plugin", run: async () => "plugin" });
    await glove.processRequest("go");
    const offered = model.requests[0]!.tools!.map((t) => t.name);
    expect(offered.filter((n) => n === "search")).toHaveLength(1);
    expect(model.requests[0]!.tools!.find((t) => t.name === "search")?.description).toBe("folded");
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('"search"'));
    warn.mockRestore();
  });
});
