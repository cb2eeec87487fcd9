import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as fromClient from "glove-client/ai-sdk";
import * as fromReact from "glove-react/ai-sdk";
import { importGraph } from "../../../glove-core/test/support/import-graph.js";

const entry = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "src", "ai-sdk", "index.ts");

describe("glove-react/ai-sdk", () => {
  it("is glove-client's transport, with no React (any useChat binding can use it)", () => {
    const graph = importGraph(entry);
    expect([...graph.external].sort()).toEqual(["glove-client/ai-sdk"]);
  });

  it("exports the same objects as glove-client/ai-sdk, under the same names", () => {
    expect(Object.keys(fromReact).sort()).toEqual(
      [
        "ChatTransportError",
        "ChunkMapper",
        "GloveChatTransport",
        "SLOT_DATA_PART",
        "ServerRequestError",
        "toUIMessages",
      ].sort(),
    );
    for (const [name, value] of Object.entries(fromReact))
      expect(value, name).toBe((fromClient as Record<string, unknown>)[name]);
  });
});
