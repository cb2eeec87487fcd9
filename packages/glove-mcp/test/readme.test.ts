import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProtectedMcp, type ProtectedMcp } from "./support/oauth-server.js";
import { startEverything, type RunningServer } from "./support/servers.js";

// Every ```ts block of the package README runs here, so documented examples cannot rot.
const here = dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(join(here, "..", "README.md"), "utf8");
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
const outDir = join(here, ".doctest");
mkdirSync(outDir, { recursive: true });

// The OAuth example's server: server-everything behind the SDK's auth router, on loopback.
let everything: RunningServer | undefined;
let protectedMcp: ProtectedMcp | undefined;
beforeAll(async () => {
  everything = await startEverything("streamableHttp");
  protectedMcp = await startProtectedMcp({ upstream: new URL(everything.url), discovery: "www-authenticate" });
  process.env.NOTION_MCP_URL = protectedMcp.url;
});
afterAll(async () => {
  delete process.env.NOTION_MCP_URL;
  await protectedMcp?.stop();
  await everything?.stop();
});

describe("README examples", () => {
  it("has an example", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
  });
  blocks.forEach((code, i) => {
    it(`example ${i + 1} runs`, async () => {
      const file = join(outDir, `readme-${i + 1}.ts`);
      writeFileSync(file, `${code}\nexport {};\n`);
      await import(/* @vite-ignore */ file);
    });
  });
});
