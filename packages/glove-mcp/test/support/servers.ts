import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { PROMPT_WAIT_MS } from "../../../../test-support/timeouts.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const packageDir = path.resolve(here, "../..");
const repoRoot = path.resolve(packageDir, "../..");

/** The entry script of an installed server package (hoisted or nested). */
export function serverScript(
  pkg: "server-everything" | "server-memory" | "server-basic-react" | "server-budget-allocator",
): string {
  for (const base of [packageDir, repoRoot]) {
    const candidate = path.join(base, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js");
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`@modelcontextprotocol/${pkg} is not installed`);
}

/** The smallest environment a Node child needs: no secrets of the test process leak into it. */
export function minimalEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", ...extra };
}

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts a Node server script whose HTTP server listens on PORT (0: a free one), bound to
 * 127.0.0.1 by the loopback preload, which reports the port; `route` is the MCP endpoint's path.
 */
export async function startLoopbackServer(
  script: string,
  args: string[],
  route: string,
  label: string,
): Promise<RunningServer> {
  const preload = pathToFileURL(path.join(here, "loopback-preload.mjs")).href;
  const child = spawn(process.execPath, ["--import", preload, script, ...args], {
    env: minimalEnv({ PORT: "0" }),
    stdio: ["ignore", "ignore", "pipe"],
  });
  const stop = () => stopChild(child);
  try {
    const { host, port } = await new Promise<{ host: string; port: number }>((resolve, reject) => {
      let buffer = "";
      const timer = setTimeout(() => reject(new Error(`${label} did not start: ${buffer}`)), PROMPT_WAIT_MS);
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
        reject(new Error(`${label} exited (${code}): ${buffer}`));
      });
    });
    child.stderr!.resume();
    return { url: `http://127.0.0.1:${port}/${route}`, host, port, child, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Starts server-everything in an HTTP mode on a free loopback port. */
export function startEverything(mode: "streamableHttp" | "sse"): Promise<RunningServer> {
  return startLoopbackServer(
    serverScript("server-everything"),
    [mode],
    mode === "sse" ? "sse" : "mcp",
    `server-everything ${mode}`,
  );
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
  await exited;
  clearTimeout(timer);
}
