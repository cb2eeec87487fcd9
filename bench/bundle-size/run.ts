/**
 * bench/bundle-size: what a minimal server-mode page (useGlove + the binding's transcript component
 * + one tool view with zod schemas; the framework external) costs in JavaScript fetched at start, by
 * package, minified and gzip, against the 180 KiB budget — for glove-react and glove-vue,
 * with Vite and with esbuild. See bench/README.md.
 */
import { BUDGET_BYTES, PAGES, measurePage, type PageName } from "./measure.js";
import { measurePageWithEsbuild } from "./measure-esbuild.js";

const from = process.env.BENCH_FROM === "dist" ? "dist" : "source";
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

for (const page of Object.keys(PAGES) as PageName[]) {
  const framework = page === "react" ? "React" : "Vue";
  console.log(
    `\n## ${page}\n\nBuilding bench/bundle-size/${page === "react" ? "page" : "vue-page"} with Vite (production, minified, ${framework} external; workspace packages from their ${from === "dist" ? "built dist/" : "TypeScript sources"})…`,
  );
  const report = await measurePage({ from, page });
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

  console.log(`\nThe same page with esbuild (bundle, minify, ESM with code splitting, ${framework} external):`);
  const esbuilt = await measurePageWithEsbuild({ from, page });
  console.log("\n| package | minified |");
  console.log("|---|---:|");
  for (const p of esbuilt.start.packages) console.log(`| ${p.name} | ${kib(p.minified)} |`);
  console.log(`| **total at start** | **${kib(esbuilt.start.minified)}** (gzip ${kib(esbuilt.start.gzip)}) |`);
  console.log(`\non demand: ${kib(esbuilt.lazy.minified)} minified (${esbuilt.lazy.files.length} files)`);
}
