import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { nodeBinary } from "../../../../test-support/node-lines.js";
import { PROMPT_WAIT_MS } from "../../../../test-support/timeouts.js";

/** How one client did on one conformance scenario. */
export interface ScenarioOutcome {
  scenario: string;
  /** pass: every check succeeded; fail: a check failed or the client exited non-zero; hang: killed at the timeout. */
  status: "pass" | "fail" | "hang";
  passed: number;
  failed: number;
  /** The ids of checks the suite marked WARNING (a SHOULD the client missed); a pass may have some. */
  warnings: string[];
  ms: number;
  /** The first failed check or the client's last stderr line. */
  detail?: string;
}

/**
 * The installed conformance suites, by package name: the release the targets are pinned to, and
 * the newest pre-release (installed under an alias beside it).
 */
export const CONFORMANCE_SUITES = {
  release: "@modelcontextprotocol/conformance",
  preRelease: "mcp-conformance-next",
} as const;

/** One of the installed suites' package names. */
export type ConformanceSuite = (typeof CONFORMANCE_SUITES)[keyof typeof CONFORMANCE_SUITES];

const here = fileURLToPath(new URL(".", import.meta.url));
const loopbackPreload = join(here, "loopback-sync-preload.mjs");
const require = createRequire(import.meta.url);

function cliOf(suite: ConformanceSuite): string {
  return join(dirname(require.resolve(`${suite}/package.json`)), "dist", "index.js");
}

const bundledClis = new Map<ConformanceSuite, Promise<string>>();

/**
 * The suite's CLI bundled with its dependencies into one file, once per test file and suite. The
 * CLI starts once per scenario and client (222 times a run); unbundled, half of each start's CPU
 * time went to finding and loading its dependencies' modules (0.5 s a start against 0.25 s). Its
 * own code is unchanged; only its `requirements/` folder (for `--requirements`, not used here) is
 * not beside the bundle.
 */
function bundledCli(suite: ConformanceSuite): Promise<string> {
  let bundle = bundledClis.get(suite);
  if (!bundle) {
    const outDir = join(repoRoot, "node_modules", ".cache", "glove-mcp-conformance", "cli", suite.replace(/\W/g, "-"));
    bundle = build({
      configFile: false,
      logLevel: "warn",
      root: repoRoot,
      ssr: { noExternal: true },
      build: {
        ssr: cliOf(suite),
        outDir,
        emptyOutDir: true,
        minify: false,
        rollupOptions: { output: { entryFileNames: "cli.mjs", format: "es" } },
      },
    }).then(() => join(outDir, "cli.mjs"));
    bundledClis.set(suite, bundle);
  }
  return bundle;
}

/** The suite's version, from its package.json. */
export function suiteVersion(suite: ConformanceSuite): string {
  return (require(`${suite}/package.json`) as { version: string }).version;
}

function dirname(path: string): string {
  return path.slice(0, path.lastIndexOf("/"));
}

/** The client scenarios the installed suite knows, read from its `list` command. */
export async function listClientScenarios(suite: ConformanceSuite): Promise<string[]> {
  const { stdout } = await runCli(suite, ["list"], PROMPT_WAIT_MS);
  const lines = stdout.split("\n");
  const start = lines.findIndex((l) => l.startsWith("Client scenarios"));
  // The section ends at the first blank line (later suites list server scenarios after it).
  const end = lines.findIndex((l, i) => i > start && l.trim() === "");
  return lines
    .slice(start + 1, end === -1 ? undefined : end)
    .map((l) => /^\s+- (\S+)/.exec(l)?.[1])
    .filter((s): s is string => s !== undefined);
}

/**
 * The Node that runs both clients (the code under test): this one, or MCP_CONFORMANCE_NODE (e.g. a
 * Node 22 from `npx -y -p node@22 node -p process.execPath`) to measure on another version.
 */
export const conformanceNode = process.env.MCP_CONFORMANCE_NODE || process.execPath;

let cliNodePath: string | undefined;

/**
 * The Node that runs the suite's CLI (the scenario servers, not the code under test): the clients'
 * when it is 22 or newer, else a Node 22 (test-support/node-lines.ts). The CLI imports
 * `fs.globSync` (Node 22), and starts 222 times a run: on Node 20 it loaded only through a module
 * hook, which resolves every module in a second thread, and kept no compile cache; a Node 22 with
 * NODE_COMPILE_CACHE starts it in about half the CPU time (0.5 s against 0.9 s here).
 */
export function cliNode(): string {
  if (cliNodePath) return cliNodePath;
  const major = Number(
    execFileSync(conformanceNode, ["-p", "process.versions.node"], { encoding: "utf8" }).split(".")[0],
  );
  cliNodePath = major >= 22 ? conformanceNode : nodeBinary(22);
  return cliNodePath;
}

const repoRoot = fileURLToPath(new URL("../../../..", import.meta.url));

/** Where the CLI keeps V8's compiled code between its starts (Node 22's NODE_COMPILE_CACHE). */
const compileCache = join(repoRoot, "node_modules", ".cache", "glove-mcp-conformance-compile");

/**
 * Bundles glove-client.mjs with glove-mcp and glove-core from their TypeScript sources (the
 * "glove-source" condition, as vitest resolves them), so the program tests the code as it is now
 * without a `tsc` build. Other dependencies stay imports, resolved from the repo's node_modules.
 */
export async function bundleGloveClient(name: string): Promise<string> {
  // A folder per caller (`name`): the test files bundle side by side, each emptying its own.
  const outDir = join(repoRoot, "node_modules", ".cache", "glove-mcp-conformance", name);
  const conditions = ["glove-source", "node", "import", "module", "default"];
  await build({
    configFile: false,
    logLevel: "warn",
    root: repoRoot,
    resolve: { conditions },
    ssr: { noExternal: [/^glove-/], resolve: { conditions, externalConditions: conditions } },
    build: {
      ssr: join(here, "glove-client.mjs"),
      outDir,
      emptyOutDir: true,
      minify: false,
      rollupOptions: { output: { entryFileNames: "glove-client.mjs", format: "es" } },
    },
  });
  return join(outDir, "glove-client.mjs");
}

/** A client under test: `node <path> <args...> <server-url>`. */
export interface ConformanceClient {
  /** An absolute path, or a file in this folder. */
  path: string;
  /** Arguments before the server URL (the suite appends it); no spaces inside one. */
  args?: string[];
}

/**
 * Runs one scenario with `client` as the client under test. The suite's own client timeout is
 * `timeoutMs`; the CLI gets 10 s more.
 */
export async function runScenario(
  suite: ConformanceSuite,
  client: ConformanceClient,
  scenario: string,
  timeoutMs = 15_000,
): Promise<ScenarioOutcome> {
  const out = await mkdtemp(join(tmpdir(), "mcp-conformance-"));
  const started = performance.now();
  try {
    // The suite splits the command on spaces and runs it through a shell, the server URL appended.
    const path = client.path.startsWith("/") ? client.path : join(here, client.path);
    const command = [`"${conformanceNode}"`, `"${path}"`, ...(client.args ?? [])].join(" ");
    const run = await runCli(
      suite,
      ["client", "--command", command, "--scenario", scenario, "--timeout", String(timeoutMs), "-o", out],
      timeoutMs + 10_000,
    );
    const ms = Math.round(performance.now() - started);
    const checks = await readChecks(out);
    const failures = checks.filter((c) => c.status === "FAILURE");
    const passed = checks.filter((c) => c.status === "SUCCESS").length;
    const hung = run.killed || /Client timed out after/.test(run.stderr + run.stdout);
    const clientFailed = /CLIENT EXITED WITH ERROR/.test(run.stdout + run.stderr);
    const status = hung ? "hang" : failures.length === 0 && !clientFailed && passed > 0 ? "pass" : "fail";
    const detail = failures[0]
      ? `${failures[0].name}: ${failures[0].errorMessage ?? ""}`.trim()
      : clientFailed || hung
        ? lastErrorLine(run.stdout + run.stderr)
        : undefined;
    const warnings = checks.filter((c) => c.status === "WARNING").map((c) => c.id);
    return { scenario, status, passed, failed: failures.length, warnings, ms, ...(detail ? { detail } : {}) };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

interface Check {
  id: string;
  name: string;
  status: string;
  errorMessage?: string;
}

async function readChecks(dir: string): Promise<Check[]> {
  const found: Check[] = [];
  for (const entry of await readdir(dir, { recursive: true })) {
    if (String(entry).endsWith("checks.json"))
      found.push(...(JSON.parse(await readFile(join(dir, String(entry)), "utf8")) as Check[]));
  }
  return found;
}

function lastErrorLine(output: string): string {
  const lines = output.split("\n").filter((l) => /error|timed out/i.test(l));
  return (lines.at(-1) ?? "").trim().slice(0, 200);
}

async function runCli(
  suite: ConformanceSuite,
  args: string[],
  killAfterMs: number,
): Promise<{ stdout: string; stderr: string; killed: boolean }> {
  const cli = await bundledCli(suite);
  return new Promise((resolve, reject) => {
    // Its scenario servers listen without a host; the preload binds them to 127.0.0.1 only.
    const child = spawn(cliNode(), ["--import", loopbackPreload, cli, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1", NODE_COMPILE_CACHE: compileCache },
    });
    let stdout = "";
    let stderr = "";
    let killed = false;
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      killed = true;
      child.kill("SIGKILL");
    }, killAfterMs);
    child.on("error", reject);
    child.on("close", () => {
      clearTimeout(timer);
      resolve({ stdout, stderr, killed });
    });
  });
}

/** Runs `tasks` with at most `limit` at once, keeping their order in the result. */
export async function pooled<T>(tasks: Array<() => Promise<T>>, limit: number): Promise<T[]> {
  const results: T[] = new Array<T>(tasks.length);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}
