import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** One `npm install …` a page of the documentation tells a reader to run. */
export interface DocumentedInstall {
  /** Where it is written, e.g. "packages/glove-sqlite/README.md:12". */
  where: string;
  /** The command as written (comments and `&& …` dropped). */
  command: string;
  /** Its package arguments (flags dropped). */
  packages: string[];
  /** The fenced block it is in: the commands of one block run in order in one app. */
  block: string | undefined;
}

/** The pages whose install lines are tested: the root README, every package README, getting started and the guides. */
export function documentationPages(root: string): string[] {
  const packages = readdirSync(join(root, "packages"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(root, "packages", entry.name, "README.md"));
  const guides = readdirSync(join(root, "docs", "guides"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => join(root, "docs", "guides", name));
  return [join(root, "README.md"), ...packages, join(root, "docs", "getting-started.md"), ...guides].filter((page) => {
    try {
      readFileSync(page);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Every `npm install` with package arguments on `pages`: lines of fenced shell blocks and inline
 * code spans. A bare `npm install` (the repository's own) is not an app's install and is left out.
 */
export function documentedInstalls(root: string, pages = documentationPages(root)): DocumentedInstall[] {
  const found: DocumentedInstall[] = [];
  for (const page of pages) {
    const name = relative(root, page);
    let block: string | undefined;
    readFileSync(page, "utf8")
      .split("\n")
      .forEach((text, index) => {
        const where = `${name}:${index + 1}`;
        if (/^\s*```/.test(text)) {
          block = block === undefined ? where : undefined;
          return;
        }
        const commands =
          block !== undefined
            ? text
                .replace(/\s#.*$/, "")
                .split(/&&|;/)
                .map((part) => part.trim())
            : [...text.matchAll(/`(npm (?:install|i) [^`]*)`/g)].map((match) => match[1]!.trim());
        for (const command of commands) {
          const words = command.split(/\s+/);
          if (words[0] !== "npm" || (words[1] !== "install" && words[1] !== "i")) continue;
          const packages = words.slice(2).filter((word) => word !== "" && !word.startsWith("-"));
          if (packages.length > 0) found.push({ where, command, packages, block });
        }
      });
  }
  return found;
}

/**
 * The Glove package an argument names, whatever form the docs give it in: `glove-sqlite`, a
 * tarball (`/tmp/glove-packs/glove-sqlite-0.1.0.tgz`, `…/glove-sqlite-0.1.0.tgz`) or a folder
 * (`../glove/packages/glove-sqlite`); undefined for anything else (a registry package).
 */
export function glovePackageOf(argument: string, known: readonly string[]): string | undefined {
  if (argument.startsWith("@")) return undefined; // a scoped registry package, e.g. @types/…
  const name = /(?:^|\/)(glove-[a-z-]+?)(?:-\d+\.\d+\.\d+\.tgz)?\/?$/.exec(argument)?.[1];
  return name !== undefined && known.includes(name) ? name : undefined;
}

/**
 * What to run for the docs' install commands, in fresh apps: the commands of one fenced block in
 * order in one app, any other alone. An app starts empty when its first command installs
 * glove-core, else from the README's first install (`glove-core` and `zod@^4`), which every Glove
 * app has. Identical plans run once.
 */
export function installPlans(installs: readonly DocumentedInstall[], known: readonly string[]): InstallPlan[] {
  const plans = new Map<string, InstallPlan>();
  const groups = new Map<string, DocumentedInstall[]>();
  installs.forEach((install, i) => {
    const key = install.block ?? `line ${i}`;
    groups.set(key, [...(groups.get(key) ?? []), install]);
  });
  for (const group of groups.values()) {
    const steps = group.map((install) =>
      install.packages.map((arg) => glovePackageOf(arg, known) ?? { registry: arg }),
    );
    const startsWithCore = steps[0]!.includes("glove-core");
    const all: InstallStep[] = startsWithCore ? steps : [["glove-core", { registry: "zod@^4" }], ...steps];
    const key = JSON.stringify(all);
    const plan = plans.get(key);
    if (plan) plan.from.push(...group.map((install) => install.where));
    else plans.set(key, { steps: all, from: group.map((install) => install.where) });
  }
  return [...plans.values()];
}

/** One `npm install`: Glove packages by name (installed from their tarballs) and registry specs. */
export type InstallStep = Array<string | { registry: string }>;

export interface InstallPlan {
  steps: InstallStep[];
  /** The doc lines it tests. */
  from: string[];
}
