import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The "Model relay" README section (readme-section.md, to be appended to the package
// README): its example must run. Until the package index re-exports the relay, the
// example's "glove-server" import is pointed at src/relay.
const here = fileURLToPath(new URL(".", import.meta.url));
const relayEntry = join(here, "..", "..", "src", "relay", "index.js");

describe("the Model relay README section", () => {
  it("has one ts example, and it runs", async () => {
    const markdown = readFileSync(join(here, "readme-section.md"), "utf8");
    const blocks = [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks).toHaveLength(1);
    const outDir = join(here, "..", ".doctest");
    mkdirSync(outDir, { recursive: true });
    const file = join(outDir, "relay-readme-section.ts");
    writeFileSync(file, `${blocks[0]!.replace('from "glove-server"', `from ${JSON.stringify(relayEntry)}`)}\nexport {};\n`);
    await import(/* @vite-ignore */ file);
  });
});
