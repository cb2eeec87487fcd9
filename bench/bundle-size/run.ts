/**
 * bench/bundle-size: what a minimal server-mode page (useGlove + <Render> + one tool view with zod
 * schemas; React external) costs in JavaScript fetched at start, by package, minified and gzip,
 * against the 180 KiB budget. See bench/README.md.
 */
import { BUDGET_BYTES, measurePage } from "./measure.js";
import { measurePageWithEsbuild } from "./measure-esbuild.js";

const from = process.env.BENCH_FROM === "dist" ? "dist" : "source";
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

console.log(
  `Building bench/bundle-size/page with Vite (production, minified, React external; workspace packages from their ${from === "dist" ? "built dist/" : "TypeScript sources"})…`,
);
const report = await measurePage({ from });
console.log(`\nloaded at start: ${report.start.files.join(", ")}`);
console.log("\n| package | minified | gzip (alone) |");
console.log("|---|---:|---:|");
for (const p of report.start.packages) console.log(`| ${p.name} | ${kib(p.minified)} | ${kib(p.gzip)} |`);
console.log(`| **total at start** | **${kib(report.start.minified)}** | **${kib(report.start.gzip)}** |`);
console.log(
  `\non demand (local mode, never fetched by a server-mode page): ${kib(report.lazy.minified)} minified, ${kib(report.lazy.gzip)} gzip (${report.lazy.files.join(", ")})`,
);
const ok = report.start.minified <= BUDGET_BYTES;
console.log(
  `\nbudget: ${kib(report.start.minified)} at start, minified (target ≤ ${kib(BUDGET_BYTES)}): ${ok ? "PASS" : "FAIL"}`,
);

console.log("\nThe same page with esbuild (bundle, minify, ESM with code splitting, React external):");
const esbuilt = await measurePageWithEsbuild({ from });
console.log("\n| package | minified |");
console.log("|---|---:|");
for (const p of esbuilt.start.packages) console.log(`| ${p.name} | ${kib(p.minified)} |`);
console.log(`| **total at start** | **${kib(esbuilt.start.minified)}** (gzip ${kib(esbuilt.start.gzip)}) |`);
console.log(`\non demand: ${kib(esbuilt.lazy.minified)} minified (${esbuilt.lazy.files.length} files)`);
