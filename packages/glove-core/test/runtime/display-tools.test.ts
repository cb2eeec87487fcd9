import { describe, expect, it } from "vitest";
import { Displaymanager, DuplicateToolError, type ToolCallDisplay } from "glove-core";
import { makeGlove } from "../support/make-glove.js";

describe("display stack from tools (decision 9)", () => {
  it("a listener that resolves a slot synchronously does not hang the tool", async () => {
    const t = makeGlove([{ toolCalls: [{ name: "confirm", input: {} }] }, { text: "ok" }]);
    t.dm.subscribe((stack) => {
      for (const slot of stack) t.dm.resolve(slot.id, "yes");
    });
    t.glove.fold({
      name: "confirm",
      description: "asks",
      do: async (_i, display) => display.pushAndWait({ renderer: "confirm", input: { q: "sure?" } }),
    });
    await t.glove.processRequest("go");
    const result = (await t.store.getMessages()).find((m) => m.tool_results)!.tool_results![0]!.result;
    expect(result).toEqual({ status: "success", data: "yes" });
  });

  it("clearStack while a tool waits turns into an error result, not a hang", async () => {
    const t = makeGlove([{ toolCalls: [{ name: "ask", input: {} }] }, { text: "ok" }]);
    t.dm.subscribe((stack) => {
      if (stack.length) void t.dm.clearStack();
    });
    t.glove.fold({ name: "ask", description: "asks", do: async (_i, d) => d.pushAndWait({ input: {} }) });
    await t.glove.processRequest("go");
    const result = (await t.store.getMessages()).find((m) => m.tool_results)!.tool_results![0]!.result;
    expect(result.status).toBe("error");
    expect(result.message).toMatch(/closed before it was answered/);
  });

  it("tools see the display manager current at call time", async () => {
    const t = makeGlove([{ toolCalls: [{ name: "which", input: {} }] }, { text: "" }]);
    let seen: unknown;
    t.glove.fold({
      name: "which",
      description: "w",
      do: async (_i, display, glove) => {
        seen = (display as ToolCallDisplay).manager;
        expect(glove.displayManager).toBe(seen);
        return "ok";
      },
    });
    const replacement = new Displaymanager();
    t.glove.setDisplayManager(replacement);
    await t.glove.processRequest("go");
    expect(seen).toBe(replacement);
  });
});

describe("tool names are unique (decision 10)", () => {
  it("folding a taken name throws a clear error unless replace: true", async () => {
    const t = makeGlove([{ toolCalls: [{ name: "dup", input: {} }] }, { text: "" }]);
    t.glove.fold({ name: "dup", description: "v1", do: async () => "v1" });
    let error: unknown;
    try {
      t.glove.fold({ name: "dup", description: "v2", do: async () => "v2" });
    } catch (e) {
      error = e;
    }
    expect(DuplicateToolError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/"dup" is already registered.*replace: true/);
    t.glove.fold({ name: "dup", description: "v2", replace: true, do: async () => "v2" });
    await t.glove.processRequest("go");
    const result = (await t.store.getMessages()).find((m) => m.tool_results)!.tool_results![0]!.result;
    expect(result.data).toBe("v2");
    expect(t.model.requests[0]!.tools!.filter((x) => x.name === "dup")).toHaveLength(1);
  });

  it("folding the name of a built-in tool throws too", () => {
    const t = makeGlove([]);
    expect(() => t.glove.fold({ name: "glove_update_tasks", description: "mine", do: async () => 1 })).toThrow(
      /already registered/,
    );
  });
});
