/**
 * The published MCP Apps example servers (`@modelcontextprotocol/server-basic-react` and
 * `server-budget-allocator`), started over stdio (as catalogue entries) or HTTP on a free
 * loopback port.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { McpCatalogueEntry } from "glove-mcp";
import { PROMPT_WAIT_MS } from "../../../../test-support/timeouts.js";
import { minimalEnv, stopChild, type RunningServer } from "../support/servers.js";

export type AppServer = "server-basic-react" | "server-budget-allocator";

const here = path.dirname(fileURLToPath(import.meta.url));
const packageDir = path.resolve(here, "../..");

export function appServerScript(pkg: AppServer): string {
  for (const base of [packageDir, path.resolve(packageDir, "../..")]) {
    const candidate = path.join(base, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js");
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`@modelcontextprotocol/${pkg} is not installed (npm ci installs it as a dev dependency of glove-mcp)`);
}

/** A catalogue entry that starts the server over stdio. */
export function stdioAppEntry(pkg: AppServer, id: string): McpCatalogueEntry {
  return {
    id,
    name: pkg,
    description: `${pkg} over stdio`,
    url: `stdio://${id}`,
    stdio: { command: process.execPath, args: [appServerScript(pkg), "--stdio"], env: minimalEnv() },
  };
}

/** The server's Streamable HTTP mode on 127.0.0.1 (the preload binds loopback and reports the port). */
export async function startAppServerHttp(pkg: AppServer): Promise<RunningServer> {
  const preload = pathToFileURL(path.join(here, "..", "support", "loopback-preload.mjs")).href;
  const child = spawn(process.execPath, ["--import", preload, appServerScript(pkg)], {
    env: minimalEnv({ PORT: "0" }),
    stdio: ["ignore", "ignore", "pipe"],
  });
  const stop = () => stopChild(child);
  try {
    const { host, port } = await new Promise<{ host: string; port: number }>((resolve, reject) => {
      let buffer = "";
      const timer = setTimeout(() => reject(new Error(`${pkg} did not start: ${buffer}`)), PROMPT_WAIT_MS);
      child.stderr!.setEncoding("utf8");
      child.stderr!.on("data", (chunk: string) => {
        buffer += chunk;
        const match = /GLOVE_TEST_LISTENING (\S+) (\d+)/.exec(buffer);
        if (match) {
          clearTimeout(timer);
          resolve({ host: match[1]!, port: Number(match[2]) });
        }
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`${pkg} exited (${code}): ${buffer}`));
      });
    });
    child.stderr!.resume();
    return { url: `http://127.0.0.1:${port}/mcp`, host, port, child, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
