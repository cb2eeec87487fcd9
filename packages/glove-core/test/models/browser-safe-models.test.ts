import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NODE_CONDITIONS, conditionalTarget, importGraph as graph, srcDir as src } from "../support/import-graph.js";

// The adapters run on fetch and Web Crypto only: no `node:` module, no package but
// zod, anywhere they reach — as a browser bundler resolves them. And `models/providers` reaches
// the adapters only through dynamic import(), so importing it loads no adapter code. In Node,
// "#http-transport" resolves to the node:http transport: only its files import `node:` modules.

describe("model adapters are browser-safe and lazily loaded", () => {
  const entries = readdirSync(join(src, "models")).filter((f) => f.endsWith(".ts"));

  it("covers the six subpaths", () => {
    expect(entries.sort()).toEqual([
      "anthropic.ts",
      "bedrock.ts",
      "mimo.ts",
      "openai-compat.ts",
      "providers.ts",
      "relay.ts",
    ]);
  });

  for (const entry of entries) {
    it(`models/${entry} (with its dynamic imports) imports no node: module and no package but zod`, () => {
      const { external } = graph(join(src, "models", entry), true);
      expect([...external].filter((s) => s !== "zod")).toEqual([]);
    });
  }

  it("models/providers statically imports no adapter", () => {
    const { files } = graph(join(src, "models", "providers.ts"), false);
    const names = [...files].map((f) => f.slice(src.length + 1));
    expect(names.filter((n) => /models\/(anthropic|openai-compat|bedrock|mimo)\.ts$/.test(n))).toEqual([]);
  });

  it("in Node, only the node:http transport's files import node: modules", () => {
    const { files, external } = graph(join(src, "models", "openai-compat.ts"), true, NODE_CONDITIONS);
    const names = [...files].map((f) => f.slice(src.length + 1));
    expect(names).toContain("models/shared/http/platform-node.ts");
    expect(names).not.toContain("models/shared/http/platform-fetch.ts");
    expect([...external].filter((s) => s !== "zod").sort()).toEqual([
      "node:http",
      "node:https",
      "node:string_decoder",
      "node:zlib",
    ]);
    const importers = [...files].filter((file) =>
      /^import\s(?!type\s)[^;]*from\s+"node:/m.test(readFileSync(file, "utf8")),
    );
    expect(importers.map((f) => f.slice(src.length + 1)).sort()).toEqual([
      "models/shared/http/node-body.ts",
      "models/shared/http/node.ts",
    ]);
  });

  it("#http-transport: node:http only under the node condition (Deno and Bun take fetch), both in the workspace and built", () => {
    const pkg = JSON.parse(readFileSync(join(src, "..", "package.json"), "utf8")) as {
      imports: Record<string, unknown>;
      files: string[];
    };
    const entry = pkg.imports["#http-transport"];
    const at = (...conditions: string[]) => conditionalTarget(entry, conditions);
    const node = "./dist/models/shared/http/platform-node.js";
    const fetchBuild = "./dist/models/shared/http/platform-fetch.js";
    expect(at("node", "import", "default")).toBe(node);
    expect(at("import", "default")).toBe(fetchBuild);
    expect(at("browser", "module", "import", "default")).toBe(fetchBuild);
    expect(at("deno", "node", "import", "default")).toBe(fetchBuild);
    expect(at("bun", "node", "import", "default")).toBe(fetchBuild);
    expect(at("workerd", "worker", "browser", "import", "default")).toBe(fetchBuild);
    expect(at("glove-source", "node", "import", "default")).toBe("./src/models/shared/http/platform-node.ts");
    expect(at("glove-source", "browser", "import", "default")).toBe("./src/models/shared/http/platform-fetch.ts");
    expect(pkg.files).toEqual(expect.arrayContaining(["dist", "src"]));
  });
});
