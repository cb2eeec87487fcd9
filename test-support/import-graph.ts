import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

// The import graph of one folder of TypeScript sources, for the structure tests every package runs.
// Type-only and dynamic imports count: a circle of types is still a tangle to read and to move.

/** Every `.ts`/`.tsx` file under `dir` (declaration files and folders named `node_modules`/`dist` left out). */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name === "dist" ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The relative specifiers a file imports: import/export … from, side-effect imports and import(). */
export function relativeImports(file: string): string[] {
  const code = readFileSync(file, "utf8");
  const found = code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["'](\.{1,2}\/[^"']+)["']/gm);
  return [...found].map((m) => m[1]!);
}

/** The source file a relative specifier names (`./x.js` is `./x.ts` or `./x.tsx` in the sources). */
export function importTarget(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(js|jsx|ts|tsx)$/, "");
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, join(base, "index.ts"), join(base, "index.tsx")]) {
    if (existsSync(candidate)) return candidate;
  }
  return base;
}

/** Files under `root` mapped to the files under `root` they import. */
export function importGraph(root: string): Map<string, string[]> {
  const files = new Set(sourceFiles(root));
  return new Map(
    [...files].map((file) => [
      file,
      relativeImports(file)
        .map((specifier) => importTarget(file, specifier))
        .filter((target) => files.has(target)),
    ]),
  );
}

/**
 * The import circles under `root`: each strongly connected group of two or more files (or a file
 * importing itself), as its paths relative to `root`, sorted, joined with " ↔ ". Sorted too.
 */
export function importCircles(root: string): string[] {
  const graph = importGraph(root);
  // Tarjan's algorithm: one depth-first pass, each group found when its first file is finished.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || (graph.get(file) ?? []).includes(file)) groups.push(group);
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return groups
    .map((group) =>
      group
        .map((file) => relative(root, file))
        .sort()
        .join(" ↔ "),
    )
    .sort();
}

/** Imports from files under `from` (relative to `root`) that reach files outside `allowed` folders. */
export function importsLeaving(root: string, from: string, allowed: string[]): string[] {
  const graph = importGraph(root);
  const inside = (file: string, folder: string) => !relative(join(root, folder), file).startsWith("..");
  return [...graph]
    .filter(([file]) => inside(file, from))
    .flatMap(([file, targets]) =>
      targets
        .filter((target) => !allowed.some((folder) => inside(target, folder)))
        .map((target) => `${relative(root, file)} imports ${relative(root, target)}`),
    );
}
