import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** packages/glove-core/src */
export const srcDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "src");

/** The source file a relative specifier names: `.ts`, `.tsx`, or a folder's `index.ts`. */
function locate(base: string): string {
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, "index.ts")])
    if (existsSync(candidate)) return candidate;
  throw new Error(`cannot resolve ${base}`);
}

/** How a browser bundler resolves workspace sources: the conditions of the UI builds' Vite configs. */
export const BROWSER_CONDITIONS = ["glove-source", "module", "browser", "import", "default"];
/** How Node (and vitest) resolve them. */
export const NODE_CONDITIONS = ["glove-source", "node", "import", "default"];

/** The package.json governing `file`. */
function packageOf(file: string): { dir: string; imports: Record<string, unknown> } {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const path = join(dir, "package.json");
    if (existsSync(path))
      return {
        dir,
        imports: (JSON.parse(readFileSync(path, "utf8")) as { imports?: Record<string, unknown> }).imports ?? {},
      };
  }
  throw new Error(`no package.json above ${file}`);
}

/** The target of a package.json "imports"/"exports" entry under `conditions` (first matching key wins, as in Node). */
export function conditionalTarget(entry: unknown, conditions: readonly string[]): string | undefined {
  if (typeof entry === "string") return entry;
  if (!entry || typeof entry !== "object") return undefined;
  for (const [key, value] of Object.entries(entry)) {
    if (!conditions.includes(key)) continue;
    const target = conditionalTarget(value, conditions);
    if (target !== undefined) return target;
  }
  return undefined;
}

/** A `#name` subpath import of the file's package, resolved under `conditions`. */
function resolveSubpath(file: string, spec: string, conditions: readonly string[]): string {
  const pkg = packageOf(file);
  const target = conditionalTarget(pkg.imports[spec], conditions);
  if (target === undefined) throw new Error(`cannot resolve ${spec} from ${file}`);
  return locate(resolve(pkg.dir, target.replace(/\.ts$/, "")));
}

/**
 * The source files a module reaches and the packages it imports (also used by glove-react's
 * browser-safety test). Type-only imports and imports shown in comments do not count; dynamic
 * `import()` is followed only when asked (lazily loaded code). Subpath imports (`#name`) resolve
 * through package.json "imports" under `conditions` (a browser bundler's, by default).
 */
export function importGraph(
  entry: string,
  followDynamic = true,
  conditions: readonly string[] = BROWSER_CONDITIONS,
): { files: Set<string>; external: Set<string> } {
  const files = new Set<string>();
  const external = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const code = readFileSync(file, "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/^\s*\/\/.*$/gm, "");
    const patterns = [/(?:import|export)\s(?!type\s)[^"']*?from\s+["']([^"']+)["']/g];
    if (followDynamic) patterns.push(/import\(\s*["']([^"']+)["']\s*\)/g);
    for (const pattern of patterns) {
      for (const m of code.matchAll(pattern)) {
        const spec = m[1]!;
        if (spec.startsWith("#")) {
          visit(resolveSubpath(file, spec, conditions));
          continue;
        }
        if (!spec.startsWith(".")) {
          external.add(spec);
          continue;
        }
        visit(locate(resolve(dirname(file), spec.replace(/\.js$/, ""))));
      }
    }
  };
  visit(entry);
  return { files, external };
}
