import { describe, expect, it } from "vitest";
import { z } from "zod";
import { z as z3 } from "zod/v3";
import { z as z4 } from "zod/v4";
import { ConfigurationError, Displaymanager, Glove, MemoryStore } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { zodSchemaKind } from "../../src/zod-version.js";

const make = () =>
  new Glove({
    store: new MemoryStore("s"),
    model: new ScriptedModel([{ text: "ok" }]),
    displayManager: new Displaymanager(),
    systemPrompt: "",
    compaction_config: { compaction_instructions: "" },
  });

describe("zod 3 schemas are refused at fold with a clear ConfigurationError", () => {
  it("tells zod 3 and zod 4 schemas apart by shape", () => {
    expect(zodSchemaKind(z3.object({ city: z3.string() }))).toBe("zod3");
    expect(zodSchemaKind(z3.string().optional())).toBe("zod3");
    expect(zodSchemaKind(z.object({ city: z.string() }))).toBe("zod4");
    expect(zodSchemaKind(z4.string())).toBe("zod4");
    expect(zodSchemaKind({ type: "object", properties: {} })).toBe("not-zod");
    expect(zodSchemaKind({ _def: {} })).toBe("not-zod");
    expect(zodSchemaKind(null)).toBe("not-zod");
  });

  it.each(["inputSchema", "resolveSchema"] as const)(
    "%s from zod 3 throws at fold, naming the field and the fix",
    (field) => {
      const fold = () =>
        make().fold({
          name: "t",
          description: "t",
          [field]: z3.object({ city: z3.string() }) as never,
          do: async () => "x",
        });
      let error: unknown;
      try {
        fold();
      } catch (e) {
        error = e;
      }
      expect(ConfigurationError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain(`fold("t"): ${field} is a zod 3 schema`);
      expect((error as Error).message).toMatch(/zod@\^4/);
      expect((error as Error).message).toContain('"zod/v4"');
    },
  );

  it("also after build()", () => {
    const glove = make().build();
    expect(() =>
      glove.fold({ name: "t", description: "t", inputSchema: z3.string() as never, do: async () => "x" }),
    ).toThrow(ConfigurationError);
  });

  it('zod 4 schemas, from "zod" or "zod/v4", are accepted and run', async () => {
    const seen: unknown[] = [];
    const glove = new Glove({
      store: new MemoryStore("s"),
      model: new ScriptedModel([
        {
          toolCalls: [
            { name: "a", input: { n: 1 } },
            { name: "b", input: { s: "x" } },
          ],
        },
        { text: "done" },
      ]),
      displayManager: new Displaymanager(),
      systemPrompt: "",
      compaction_config: { compaction_instructions: "" },
    })
      .fold({
        name: "a",
        description: "a",
        inputSchema: z.object({ n: z.number() }),
        do: async (input) => void seen.push(input),
      })
      .fold({
        name: "b",
        description: "b",
        inputSchema: z4.object({ s: z4.string() }),
        do: async (input) => void seen.push(input),
      })
      .build();
    await glove.processRequest("go");
    expect(seen).toEqual([{ n: 1 }, { s: "x" }]);
  });
});
