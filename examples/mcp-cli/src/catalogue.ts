import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { McpCatalogueEntry } from "glove-mcp";

const here = path.dirname(fileURLToPath(import.meta.url));
/** Works from src/ (tests) and dist/ (npm start): the preload sits next to package.json. */
const preload = pathToFileURL(path.resolve(here, "..", "loopback-preload.mjs")).href;
const require = createRequire(import.meta.url);

function serverScript(pkg: "server-everything" | "server-memory"): string {
  return path.join(path.dirname(require.resolve(`@modelcontextprotocol/${pkg}/package.json`)), "dist", "index.js");
}

/** The smallest environment a server needs: no secrets (API keys) of this process leak into it. */
function minimalEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", ...extra };
}

export interface LocalCatalogue {
  entries: McpCatalogueEntry[];
  /** Stops server-everything and removes the memory server's temp directory. */
  stop(): Promise<void>;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
  await exited;
  clearTimeout(timer);
}

/** Starts server-everything (Streamable HTTP) on a free port bound to 127.0.0.1 only. */
async function startEverything(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", preload, serverScript("server-everything"), "streamableHttp"], {
    env: minimalEnv({ PORT: "0" }),
    stdio: ["ignore", "ignore", "pipe"],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let buffer = "";
      const timer = setTimeout(() => reject(new Error(`server-everything did not start: ${buffer}`)), 15_000);
      child.stderr!.setEncoding("utf8");
      child.stderr!.on("data", (chunk: string) => {
        buffer += chunk;
        const match = /GLOVE_MCP_CLI_LISTENING \S+ (\d+)/.exec(buffer);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`server-everything exited (${code}): ${buffer}`));
      });
    });
    child.stderr!.resume();
    return { url: `http://127.0.0.1:${port}/mcp`, child };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

/**
 * The local catalogue: server-everything over Streamable HTTP on loopback, and
 * server-memory over stdio (started by glove-mcp when the entry is activated).
 */
export async function startLocalCatalogue(): Promise<LocalCatalogue> {
  const everything = await startEverything();
  const memoryDir = await mkdtemp(path.join(tmpdir(), "glove-mcp-cli-"));
  const entries: McpCatalogueEntry[] = [
    {
      id: "everything",
      name: "Everything",
      description:
        "Reference MCP server: echo a message, add two numbers (sum, arithmetic), sample images and resources.",
      tags: ["echo", "sum", "math", "demo"],
      url: everything.url,
    },
    {
      id: "memory",
      name: "Memory",
      description: "A knowledge graph to remember people, entities and facts.",
      tags: ["notes", "knowledge", "remember"],
      url: "stdio://memory",
      stdio: {
        command: process.execPath,
        args: [serverScript("server-memory")],
        env: minimalEnv({ MEMORY_FILE_PATH: path.join(memoryDir, "graph.jsonl") }),
      },
    },
  ];
  // If the process exits without stop() (Ctrl-C, an uncaught error), still kill the server.
  const killOnExit = () => everything.child.kill("SIGKILL");
  process.once("exit", killOnExit);
  return {
    entries,
    async stop() {
      process.off("exit", killOnExit);
      await stopChild(everything.child);
      await rm(memoryDir, { recursive: true, force: true });
    },
  };
}
