import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Tool } from "glove-core";
import { AnthropicAdapter } from "../../src/models/anthropic.js";
import { OpenAICompatAdapter } from "../../src/models/openai-compat.js";
import { toolJsonSchema } from "../../src/models/shared/messages.js";
import { ToolWireCache } from "../../src/models/shared/tool-wire-cache.js";

// Each conversation's Glove has its own Tool objects built from the same definitions: their
// encodings are shared by definition (schema object, name, description), not per Tool object.
const lookupSchema = z.object({ query: z.string() });
const tool = (description = "Look an item up.", schema: z.ZodType = lookupSchema): Tool<unknown> => ({
  name: "lookup",
  description,
  input_schema: schema,
  run: async () => ({ status: "success", data: null }),
});
const request = (tools: Tool<unknown>[]) => ({ messages: [{ sender: "user" as const, text: "Hi" }], tools });

describe("tool encodings shared by definition", () => {
  it("two conversations' tools with one zod schema share one JSON Schema object", () => {
    expect(toolJsonSchema(tool())).toBe(toolJsonSchema(tool()));
    expect(toolJsonSchema(tool())).not.toBe(toolJsonSchema(tool(undefined, z.object({ query: z.string() }))));
  });

  it("encodes a definition once for every Tool object and adapter made from it", () => {
    let encoded = 0;
    const cache = new ToolWireCache((t: Tool<unknown>) => `${++encoded}:${t.name}:${t.description}`);
    const first = cache.get(tool());
    expect(cache.get(tool())).toBe(first);
    expect(encoded).toBe(1);
    // Another description or another schema is another definition.
    expect(cache.get(tool("Find an item."))).toBe("2:lookup:Find an item.");
    expect(cache.get(tool(undefined, z.object({ id: z.number() })))).toBe("3:lookup:Look an item up.");
    expect(cache.get(tool())).toBe(first);
  });

  it("a computed description that changes is sent as it is now (skills added after build)", () => {
    let skills = "none";
    const dynamic: Tool<unknown> = {
      ...tool(),
      get description() {
        return `Skills: ${skills}`;
      },
    };
    for (const make of [
      () => new OpenAICompatAdapter({ model: "m", baseURL: "http://127.0.0.1:1/v1", apiKey: "k" }),
      () => new AnthropicAdapter({ model: "m", baseURL: "http://127.0.0.1:1", apiKey: "k" }),
    ]) {
      const adapter = make();
      skills = "none";
      expect(adapter.buildBody(request([dynamic]))).toContain("Skills: none");
      skills = "summarise";
      expect(adapter.buildBody(request([dynamic]))).toContain("Skills: summarise");
      // A fresh adapter (another conversation) sends the same bytes.
      expect(make().buildBody(request([tool()]))).toBe(adapter.buildBody(request([tool()])));
    }
  });

  it("tells definitions apart by name and description both, whatever characters they hold", () => {
    let encoded = 0;
    const cache = new ToolWireCache((t: Tool<unknown>) => `${++encoded}:${t.name}|${t.description}`);
    const named = (name: string, description: string): Tool<unknown> => ({ ...tool(description), name });
    expect(cache.get(named("a\u0000b", "c"))).toBe("1:a\u0000b|c");
    expect(cache.get(named("a", "b\u0000c"))).toBe("2:a|b\u0000c");
    expect(cache.get(named("other", "c"))).toBe("3:other|c");
    expect(cache.get(named("a\u0000b", "c"))).toBe("1:a\u0000b|c");
    expect(encoded).toBe(3);
  });

  it("keeps a bounded number of forms per schema", () => {
    let encoded = 0;
    const cache = new ToolWireCache((t: Tool<unknown>) => `${++encoded}:${t.description}`);
    for (let i = 0; i < 50; i++) cache.get(tool(`v${i}`));
    expect(cache.get(tool("v49"))).toBe("50:v49");
    // The oldest forms were dropped: asked again, it is encoded again.
    expect(cache.get(tool("v0"))).toBe("51:v0");
  });
});
