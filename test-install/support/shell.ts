import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import ts from "typescript";

const run = promisify(execFile);

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The environment without the npm_* variables of an enclosing `npm test` (workspace, prefix…). */
export const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));

/** Runs a command; on failure the error carries its output. Returns stdout and stderr. */
export async function shell(command: string, args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${command} ${args.join(" ")} (in ${cwd}) failed: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`,
    );
  }
}

/** Runs a command and returns its stdout. */
export async function sh(command: string, args: string[], cwd: string): Promise<string> {
  return (await shell(command, args, cwd)).stdout;
}

/** The n-th ```ts block of a package README, compiled to plain JavaScript for `node`. */
export function readmeExample(pkg: string, n: number): string {
  const readme = readFileSync(join(ROOT, "packages", pkg, "README.md"), "utf8");
  const code = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)][n - 1]?.[1];
  if (!code) throw new Error(`${pkg}/README.md has no example ${n}`);
  const out = ts.transpileModule(`${code}\nexport {};\n`, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
  });
  return out.outputText;
}

/** Runs `work` over `items`, at most `limit` at once (the machine has two cores). */
export async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}
