/**
 * bench/vue: DOM updates and main-thread time while tokens stream into a long timeline, glove-vue
 * (local-mode useGlove + <GloveRender>) against a minimal hand-written ref chat, in the same
 * Chromium run (bench/react's driver and token source). See bench/README.md.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launch, runBench, summarise, type Sample } from "../react/measure.js";
import { buildVuePage, servePage } from "./page-server.js";

const num = (name: string, fallback: number) => {
  const raw = process.env[name];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got ${raw}`);
  return value;
};

const options = {
  tokens: num("BENCH_TOKENS", 5000),
  entries: num("BENCH_ENTRIES", 500),
  reps: num("BENCH_REPS", 5),
  warmup: num("BENCH_WARMUP", 1),
};
const f1 = (n: number) => n.toFixed(1);

const dir = await mkdtemp(join(tmpdir(), "glove-bench-vue-"));
try {
  console.log(`Building the page (vite build, Vue production)…`);
  await buildVuePage(dir);
  const server = await servePage(dir);
  const browser = await launch();
  try {
    console.log(
      `Chromium ${browser.version()}: ${options.tokens} tokens into ${options.entries} entries, ${options.reps} reps (+${options.warmup} warm-up), alternating order`,
    );
    const samples: Sample[] = await runBench(browser, server.url, options);
    for (const s of samples) {
      console.log(
        `  ${s.kind.padEnd(5)} updates ${String(s.commits).padStart(5)}  wall ${f1(s.wallMs).padStart(7)} ms  task ${f1(s.taskMs).padStart(7)} ms  script ${f1(s.scriptMs).padStart(7)} ms  long tasks ${s.longTasks} (${f1(s.longTaskMs)} ms)`,
      );
    }
    const { glove, plain } = summarise(samples);
    console.log(
      "\n| chat | DOM updates | tokens/update | wall ms | main-thread task ms | script ms | long tasks (ms) |",
    );
    console.log("|---|---:|---:|---:|---:|---:|---:|");
    for (const s of [glove, plain]) {
      console.log(
        `| ${s.kind === "glove" ? "glove-vue" : "hand-written ref"} | ${s.commits} | ${f1(options.tokens / s.commits)} | ${f1(s.wallMs)} | ${f1(s.taskMs)} | ${f1(s.scriptMs)} | ${s.longTasks} (${f1(s.longTaskMs)}) |`,
      );
    }
    const fewer = options.tokens / glove.commits;
    const ratio = glove.taskMs / plain.taskMs;
    console.log(`\nDOM updates: ${f1(fewer)}× fewer than tokens (target ≥ 20×): ${fewer >= 20 ? "PASS" : "FAIL"}`);
    console.log(
      `main-thread time: glove-vue ${f1(glove.taskMs)} ms vs hand-written ${f1(plain.taskMs)} ms = ${ratio.toFixed(2)}× (target ≤ 1×): ${ratio <= 1 ? "PASS" : "FAIL"}`,
    );
  } finally {
    await browser.close();
    await server.close();
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
