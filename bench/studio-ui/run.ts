/**
 * bench/studio-ui: the cost of one more page of Glove Studio's conversation list at 100 000
 * conversations against 1 000, in the same Chromium run (SQLite storage, the standalone studio,
 * its built UI). See bench/README.md.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startStudio } from "glove-studio";
import { measureList, median, type ListSample } from "./measure.js";
import { seededStorage } from "./seed-catalog.js";

const num = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number`);
  return value;
};
const sizes = [num("BENCH_SMALL", 1000), num("BENCH_LARGE", 100_000)];
const pages = num("BENCH_PAGES", 8);
const reps = num("BENCH_REPS", 3);
const CHROMIUM = process.env.GLOVE_CHROMIUM ?? "/usr/bin/chromium";
const f1 = (n: number) => n.toFixed(1);

const dir = await mkdtemp(join(tmpdir(), "glove-bench-studio-"));
try {
  const uiDir = join(dir, "ui");
  const { build } = await import("vite");
  await build({
    configFile: fileURLToPath(new URL("../../../packages/glove-studio/ui/vite.config.ts", import.meta.url)),
    build: { outDir: uiDir, emptyOutDir: true },
    logLevel: "warn",
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
  });
  const samples = new Map<number, ListSample[]>();
  try {
    const studios = [];
    for (const size of sizes) {
      const t = Date.now();
      const seeded = seededStorage(dir, size);
      console.log(`seeded ${size} conversations in ${Date.now() - t} ms`);
      studios.push({ size, seeded, studio: await startStudio({ storage: seeded.storage, port: 0, uiDir }) });
    }
    // Alternating order, so neither size always runs on a warmer machine.
    for (let rep = 0; rep < reps; rep++) {
      for (const { size, studio } of rep % 2 ? [...studios].reverse() : studios) {
        const sample = await measureList(browser, studio.url, size, pages);
        samples.set(size, [...(samples.get(size) ?? []), sample]);
      }
    }
    for (const { seeded, studio } of studios) {
      await studio.close();
      seeded.close();
    }
  } finally {
    await browser.close();
  }
  console.log(
    "\n| conversations | first rows ms | per page: wall ms | main-thread task ms | script ms | rows in the DOM |",
  );
  console.log("|---:|---:|---:|---:|---:|---:|");
  const summary = sizes.map((size) => {
    const list = samples.get(size)!;
    const all = list.flatMap((s) => s.pages);
    const row = {
      size,
      first: median(list.map((s) => s.firstRowsMs)),
      wall: median(all.map((p) => p.wallMs)),
      task: median(all.map((p) => p.taskMs)),
      script: median(all.map((p) => p.scriptMs)),
      dom: Math.max(...list.map((s) => s.domRows)),
    };
    console.log(
      `| ${size.toLocaleString("en-US")} | ${f1(row.first)} | ${f1(row.wall)} | ${f1(row.task)} | ${f1(row.script)} | ${row.dom} |`,
    );
    return row;
  });
  const [small, large] = summary as [(typeof summary)[number], (typeof summary)[number]];
  console.log(
    `\nper-page main-thread time, ${large.size} vs ${small.size}: ${(large.task / small.task).toFixed(2)}×; wall ${(large.wall / small.wall).toFixed(2)}×; first rows ${(large.first / small.first).toFixed(2)}×`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
