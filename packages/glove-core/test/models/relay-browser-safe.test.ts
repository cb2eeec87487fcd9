import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importGraph, srcDir } from "../support/import-graph.js";

// The relay client runs in the browser tab: fetch and the shared SSE parser only.
describe("glove-core/models/relay is browser-safe", () => {
  it("imports no node: module and no package but zod, and no provider adapter", () => {
    const { files, external } = importGraph(join(srcDir, "models", "relay.ts"), true);
    expect([...external].filter((s) => s !== "zod")).toEqual([]);
    const names = [...files].map((f) => f.slice(srcDir.length + 1));
    expect(names.filter((n) => /models\/(anthropic|openai-compat|bedrock|mimo|providers)/.test(n))).toEqual([]);
  });
});
