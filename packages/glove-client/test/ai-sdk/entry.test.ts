import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { importGraph } from "../../../glove-core/test/support/import-graph.js";

const entry = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "src", "ai-sdk", "index.ts");

describe("glove-client/ai-sdk", () => {
  it("reaches no node: module and no package but the AI SDK and glove-core's small subpaths (not its root, the runtime)", () => {
    const graph = importGraph(entry);
    expect([...graph.external].sort()).toEqual([
      "ai",
      "glove-core/display-manager",
      "glove-core/errors",
      "glove-core/sse",
    ]);
  });
});
