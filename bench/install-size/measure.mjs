/* global URL, console, process */
// Install size of a newcomer's SQLite apps, from this checkout's packed tarballs: node_modules on
// disk (du), packages, install scripts and wall time, with and without better-sqlite3 — the driver
// an app on Node 20 adds, and what every install pulled and built while it was a dependency of
// glove-sqlite (12.9.0, with @types/better-sqlite3). Install scripts run as in a real install.
//
//   node bench/install-size/measure.mjs [--packs DIR]    (DIR: tarballs from npm pack; else packs them)
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
const run = (command, args, cwd) => execFileSync(command, args, { cwd, env, encoding: "utf8", stdio: "pipe" });

const work = mkdtempSync(join(tmpdir(), "glove-install-size-"));
const packsFlag = process.argv.indexOf("--packs");
let packs = packsFlag > 0 ? process.argv[packsFlag + 1] : undefined;
if (!packs) {
  packs = join(work, "packs");
  mkdirSync(packs);
  const names = ["glove-core", "glove-sqlite", "glove-server"];
  run(
    process.execPath,
    [join(ROOT, "node_modules/typescript/bin/tsc"), "-b", ...names.map((n) => `packages/${n}`)],
    ROOT,
  );
  run("npm", ["pack", "--pack-destination", packs, ...names.flatMap((n) => ["-w", n])], ROOT);
}
const tarball = (name) =>
  join(
    packs,
    readdirSync(packs).find((file) => file.startsWith(`${name}-0.`)),
  );

const APPS = [
  { app: "script agent", packages: ["glove-core", "glove-sqlite"] },
  { app: "server app", packages: ["glove-core", "glove-sqlite", "glove-server"] },
];
const DRIVER = ["better-sqlite3@12.9.0", "@types/better-sqlite3@^9.6.0"];

const rows = [];
for (const { app, packages } of APPS) {
  for (const withDriver of [true, false]) {
    const dir = join(work, `${app.replace(" ", "-")}-${withDriver ? "with" : "without"}`);
    mkdirSync(dir);
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "measure", private: true, type: "module" }));
    const args = [...packages.map(tarball), "zod@^4", ...(withDriver ? DRIVER : [])];
    const started = process.hrtime.bigint();
    run("npm", ["install", ...args, "--no-audit", "--no-fund", "--prefer-offline", "--foreground-scripts"], dir);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const lock = JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8")).packages;
    const entries = Object.entries(lock).filter(([path]) => path !== "");
    rows.push({
      app,
      driver: withDriver ? "with better-sqlite3 (before; Node 20 now)" : "without (Node 22.13+ now)",
      kib: Number(run("du", ["-sk", "node_modules"], dir).split("\t")[0]),
      packages: entries.length,
      scripts: entries
        .filter(([, entry]) => entry.hasInstallScript)
        .map(([path]) => path.replace(/^.*node_modules\//, "")),
      seconds,
    });
  }
}
rmSync(work, { recursive: true, force: true });

console.log(`node ${process.version}, npm ${run("npm", ["--version"], ROOT).trim()}\n`);
console.log("| app | SQLite driver | node_modules | packages | install scripts | install time |");
console.log("|---|---|---|---|---|---|");
for (const r of rows)
  console.log(
    `| ${r.app} | ${r.driver} | ${(r.kib / 1024).toFixed(1)} MiB | ${r.packages} | ${r.scripts.join(", ") || "none"} | ${r.seconds.toFixed(0)} s |`,
  );
