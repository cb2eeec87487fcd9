import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { repoRoot } from "../../../../test-support/child-processes.js";
import { PROMPT_WAIT_MS } from "../../../../test-support/timeouts.js";

const script = fileURLToPath(new URL("../fixtures/server-process.mjs", import.meta.url));

/** A glove-server in a child process (test/fixtures/server-process.mjs), built from dist. */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Resolves once a "hang" tool runs. */
  toolRunning: Promise<void>;
  /** Kills the process with SIGKILL and resolves once it is gone. */
  kill(): Promise<NodeJS.Signals | null>;
}

const children: ChildProcess[] = [];

/** Kills every server process still running (for afterAll). */
export function killServerProcesses(): void {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

/**
 * Starts the fixture server on `storage` (a SQLite file, or postgres://…#schema) and resolves
 * with its URL once it listens.
 */
export function serverProcess(
  storage: string,
  mode: "hang" | "answer" | "durable" | "permission",
  effectsFile?: string,
): Promise<ServerProcess> {
  const args = [script, storage, mode, ...(effectsFile !== undefined ? [effectsFile] : [])];
  const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let out = "";
  let err = "";
  child.stderr!.on("data", (c: Buffer) => (err += c.toString()));
  let markRunning!: () => void;
  const toolRunning = new Promise<void>((resolve) => (markRunning = resolve));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
  const kill = () => {
    child.kill("SIGKILL");
    return exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server process never listened; stderr: ${err}`)), PROMPT_WAIT_MS);
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      const url = /URL (\S+)/.exec(out)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url, child, toolRunning, kill });
      }
      if (out.includes("TOOL_RUNNING")) markRunning();
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server process exited (${code}): ${err}`));
    });
  });
}

/** A request to a server process as alice; `body` makes it a POST. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies of many shapes
export async function api(url: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(url + path, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: "Bearer alice", "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}
