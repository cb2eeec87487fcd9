import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { repoRoot } from "../../../../../test-support/child-processes.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/scale-server.mjs", import.meta.url));

/** One server instance in its own process. */
export interface Instance {
  url: string;
  child: ChildProcess;
  stderr(): string;
  exited: Promise<NodeJS.Signals | null>;
}

const started: ChildProcess[] = [];

/** Starts an instance of the fixture server and resolves with its URL. */
export function startInstance(
  schema: string,
  prefix: string,
  redisUrl: string,
  lockMs = 1000,
  env: Record<string, string> = {},
): Promise<Instance> {
  const child = spawn(process.execPath, [FIXTURE, schema, prefix, redisUrl, String(lockMs)], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  started.push(child);
  let out = "";
  let err = "";
  child.stderr!.on("data", (c: Buffer) => (err += c.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      const url = /URL (\S+)/.exec(out)?.[1];
      if (url) resolve({ url, child, stderr: () => err, exited });
    });
    child.on("exit", (code) => reject(new Error(`instance exited (${code}) before listening: ${err}`)));
  });
}

/** SIGKILLs every instance this test file started (afterAll). */
export function killAll(): void {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies of many shapes
export type Api = (path: string, body?: unknown, user?: string) => Promise<{ status: number; body: any }>;

/** JSON calls to one instance as `user` (default "alice"). */
export function apiOf(url: string): Api {
  return async (path, body, user = "alice") => {
    const response = await fetch(url + path, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${user}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
}
