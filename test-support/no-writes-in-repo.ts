import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// Tests write only under temporary folders. A server or store opened without a path keeps its data
// in ./.glove of the working directory, the repository's root under vitest (an example's demo in its
// own folder's): this global setup fails the run when the suite made or wrote to one, naming it.

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** The root's ./.glove, and each example's (their demos keep data there; their tests must not). */
const WATCHED = [
  join(ROOT, ".glove"),
  ...readdirSync(join(ROOT, "examples")).map((example) => join(ROOT, "examples", example, ".glove")),
];

function state(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  const db = join(path, "glove.db");
  return existsSync(db) ? String(statSync(db).mtimeMs) : "present";
}

export default function setup(): () => void {
  const before = new Map(WATCHED.map((path) => [path, state(path)]));
  return () => {
    const changed = WATCHED.filter((path) => state(path) !== undefined && state(path) !== before.get(path));
    if (changed.length === 0) return;
    // A throw here is only logged by vitest: the exit code is what fails the run (CI, npm test).
    console.error(
      `\nThe tests wrote into the repository: ${changed.join(", ")}. A test that starts a server or opens a store ` +
        "without a path writes to ./.glove: give it a folder from mkdtempSync(join(tmpdir(), …)) (dataDir, path or dbPath).\n",
    );
    process.exitCode = 1;
  };
}
