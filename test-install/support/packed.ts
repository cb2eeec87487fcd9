import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { inject } from "vitest";
import type {} from "../../test-support/vitest/pack-dir.js";
import { ROOT, sh } from "./shell.js";

/** Every publishable package (not `"private": true`). */
export const PUBLISHABLE = readdirSync(join(ROOT, "packages")).filter((name) => {
  const manifest = join(ROOT, "packages", name, "package.json");
  return existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).private !== true;
});

/** The packed packages: package name → tarball. */
export type Tarballs = ReadonlyMap<string, string>;

let packed: Promise<Tarballs> | undefined;

/**
 * The publishable packages built and packed once per test run, whichever test-install file asks
 * first: the run's folder (test-support/vitest/pack-dir.ts) is shared by the worker processes, so
 * the first to take its lock packs and the others wait for its `packed.json`. Without that
 * folder (another vitest config) this file packs into a folder of its own.
 */
export function packedTarballs(): Promise<Tarballs> {
  packed ??= packInto(runPackDir() ?? mkdtempSync(join(tmpdir(), "glove-pack-")));
  return packed;
}

function runPackDir(): string | undefined {
  try {
    return inject("glovePackDir");
  } catch {
    return undefined;
  }
}

async function packInto(dir: string): Promise<Tarballs> {
  const done = join(dir, "packed.json");
  const lock = join(dir, "packing");
  for (;;) {
    if (existsSync(done))
      return new Map(Object.entries(JSON.parse(readFileSync(done, "utf8")) as Record<string, string>));
    try {
      mkdirSync(lock);
    } catch {
      // Another file is packing; if it fails it removes the lock and the next waiter tries itself.
      await sleep(250);
      continue;
    }
    try {
      const tarballs = await pack(join(dir, "tarballs"));
      writeFileSync(`${done}.tmp`, JSON.stringify(Object.fromEntries(tarballs)));
      renameSync(`${done}.tmp`, done);
      return tarballs;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

async function pack(destination: string): Promise<Tarballs> {
  mkdirSync(destination, { recursive: true });
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  await sh(process.execPath, [tsc, "-b", ...PUBLISHABLE.map((p) => join("packages", p))], ROOT);
  const out = JSON.parse(
    await sh(
      "npm",
      ["pack", "--json", "--pack-destination", destination, ...PUBLISHABLE.flatMap((p) => ["--workspace", p])],
      ROOT,
    ),
  ) as { name: string; filename: string }[];
  if (out.length !== PUBLISHABLE.length)
    throw new Error(`npm pack packed ${out.map((p) => p.name).join(", ")}; expected ${PUBLISHABLE.join(", ")}`);
  return new Map(out.map((p) => [p.name, join(destination, p.filename)]));
}

/** A new app folder `dir/name` with a bare ESM package.json, as `npm init` leaves it. */
export function freshApp(dir: string, name: string): string {
  const app = join(dir, name);
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, "package.json"), JSON.stringify({ name, private: true, type: "module" }, null, 2));
  return app;
}

/** The `packages` of an app's package-lock.json. */
export function lockOf(app: string): Record<string, { resolved?: string; hasInstallScript?: boolean }> {
  return (JSON.parse(readFileSync(join(app, "package-lock.json"), "utf8")) as { packages: Record<string, never> })
    .packages;
}

/** npm's flags for every install here: no audit or funding calls; the cache first. */
export const NPM_FLAGS = ["--no-audit", "--no-fund", "--prefer-offline"];
