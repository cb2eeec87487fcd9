import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ScriptedStep } from "glove-core/testing";
import { mountMcp, type McpClientFeatureOptions, type McpMount } from "glove-mcp";
import { TestAdapter } from "../support/adapter.js";
import { scriptedGlove } from "../support/scripted-glove.js";
import { minimalEnv } from "../support/servers.js";

// The published @modelcontextprotocol/server-filesystem over stdio. It is started with one
// directory on its command line, but a client that declares roots replaces that list with its
// roots (at start, and again on roots/list_changed): exactly what glove-mcp's roots drive.
const script = join(
  dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/server-filesystem/package.json")),
  "dist",
  "index.js",
);

let cliDir: string;
let rootDir: string;
let mount: McpMount | undefined;

beforeAll(async () => {
  // realpath: the server compares resolved paths (macOS /var → /private/var and the like).
  cliDir = await realpath(await mkdtemp(join(tmpdir(), "glove-fs-cli-")));
  rootDir = await realpath(await mkdtemp(join(tmpdir(), "glove-fs-root-")));
  await writeFile(join(cliDir, "cli.txt"), "from the command-line directory");
});
afterAll(async () => {
  await rm(cliDir, { recursive: true, force: true });
  await rm(rootDir, { recursive: true, force: true });
});
afterEach(async () => {
  await mount?.unmount();
  mount = undefined;
});

async function mountFs(steps: ScriptedStep[], clientFeatures?: McpClientFeatureOptions) {
  const { glove, results } = scriptedGlove(steps, { storeName: "fs" });
  const adapter = new TestAdapter();
  adapter.active.add("fs");
  mount = await mountMcp(glove, {
    adapter,
    entries: [
      {
        id: "fs",
        name: "Files",
        description: "files",
        url: "stdio://fs",
        stdio: { command: process.execPath, args: [script, cliDir], env: minimalEnv() },
      },
    ],
    log: () => undefined,
    ...(clientFeatures ? { clientFeatures } : {}),
  });
  expect(mount.failed).toEqual([]);
  const allowed = async () => {
    const result = (await mount!.session
      .connection("fs")!
      .client.callTool({ name: "list_allowed_directories", arguments: {} })) as CallToolResult;
    return result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
  };
  return { glove, allowed, results };
}

describe("server-filesystem (published, stdio) and roots", () => {
  it("without roots, the server keeps its command-line directory", async () => {
    const { allowed } = await mountFs([]);
    expect(await allowed()).toContain(cliDir);
  });

  it("with roots, the server works inside them only; setRoots moves it", async () => {
    const file = join(rootDir, "note.txt");
    const { glove, allowed, results } = await mountFs(
      [
        { toolCalls: [{ name: "fs__write_file", input: { path: file, content: "written through glove" }, id: "w" }] },
        { toolCalls: [{ name: "fs__read_text_file", input: { path: join(cliDir, "cli.txt") }, id: "r" }] },
        { text: "done" },
      ],
      { roots: [{ uri: pathToFileURL(rootDir).href, name: "workspace" }] },
    );
    // The server fetches the roots after initialisation; wait until it has switched.
    await expect.poll(allowed, { timeout: 60_000 }).toContain(rootDir);
    expect(await allowed()).not.toContain(cliDir);

    await glove.processRequest("Write the note, then read the other file.");
    const [write, outside] = await results();
    expect(write!.result.status).toBe("success");
    expect(await readFile(file, "utf8")).toBe("written through glove");
    expect(outside!.result.status).toBe("error");
    expect(String(outside!.result.message)).toMatch(/outside allowed directories|Access denied/i);

    await mount!.features!.setRoots("fs", [{ uri: pathToFileURL(cliDir).href }]);
    await expect.poll(allowed, { timeout: 60_000 }).toContain(cliDir);
    expect(await allowed()).not.toContain(rootDir);
  });
});
