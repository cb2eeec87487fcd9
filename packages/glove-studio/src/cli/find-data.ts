import { existsSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";

const DEFAULT = join(".glove", "glove.db");
const SKIP = new Set(["node_modules", ".git", "dist"]);

/**
 * The SQLite file to open when none was named: glove-server's default (./.glove/glove.db), else
 * the only `.glove/glove.db` one or two folders down (an app inside a monorepo, like the Glove
 * repository's web demo). Several or none: undefined, and the candidates found.
 */
export function findDefaultData(cwd: string): { path?: string; candidates: string[] } {
  if (existsSync(join(cwd, DEFAULT))) return { path: DEFAULT, candidates: [DEFAULT] };
  const candidates: string[] = [];
  const visit = (dir: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || SKIP.has(entry.name) || (entry.name.startsWith(".") && entry.name !== ".glove"))
        continue;
      const folder = join(dir, entry.name);
      if (existsSync(join(folder, DEFAULT))) candidates.push(relative(cwd, join(folder, DEFAULT)));
      if (depth > 1) visit(folder, depth - 1);
    }
  };
  visit(cwd, 2);
  return candidates.length === 1 ? { path: candidates[0]!, candidates } : { candidates };
}
