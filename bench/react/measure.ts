/**
 * Drives the page in Chromium (playwright-core, Debian's /usr/bin/chromium): for each repetition,
 * both chats stream the same tokens into the same history, in alternating order. Around each
 * stream it reads Chrome's own counters (CDP Performance.getMetrics: TaskDuration, ScriptDuration)
 * for the renderer's main thread.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser, type CDPSession, type Page } from "playwright-core";
import type { ChatKind, PageResult } from "./types.js";

export type { ChatKind, PageResult };

export const CHROMIUM = process.env.GLOVE_CHROMIUM ?? "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface Sample extends PageResult {
  /** Main-thread busy time during the stream (CDP TaskDuration delta). */
  taskMs: number;
  /** JavaScript time during the stream (CDP ScriptDuration delta). */
  scriptMs: number;
}

export interface BenchOptions {
  tokens: number;
  entries: number;
  reps: number;
  /** Discarded runs of each chat before the measured ones. */
  warmup: number;
}

export async function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium is not installed at ${CHROMIUM} (apt-get install chromium, or set GLOVE_CHROMIUM).`);
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/** The page's API (functions passed to page.evaluate run in the page: no closures over this module). */
interface BenchWindow {
  __bench: {
    prepare(kind: ChatKind, tokens: number, entries: number): Promise<void>;
    go(): Promise<PageResult>;
    finish(): void;
  };
}

async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics: list } = await cdp.send("Performance.getMetrics");
  return Object.fromEntries(list.map((m) => [m.name, m.value]));
}

async function once(page: Page, cdp: CDPSession, kind: ChatKind, options: BenchOptions): Promise<Sample> {
  await page.evaluate(([k, t, e]) => (globalThis as unknown as BenchWindow).__bench.prepare(k, t, e), [
    kind,
    options.tokens,
    options.entries,
  ] as const);
  const before = await metrics(cdp);
  const result = await page.evaluate(() => (globalThis as unknown as BenchWindow).__bench.go());
  const after = await metrics(cdp);
  await page.evaluate(() => (globalThis as unknown as BenchWindow).__bench.finish());
  return {
    ...result,
    taskMs: ((after.TaskDuration ?? 0) - (before.TaskDuration ?? 0)) * 1000,
    scriptMs: ((after.ScriptDuration ?? 0) - (before.ScriptDuration ?? 0)) * 1000,
  };
}

/** Runs every repetition in one page of one browser; returns the measured samples in order. */
export async function runBench(browser: Browser, url: string, options: BenchOptions): Promise<Sample[]> {
  const page = await browser.newPage();
  try {
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(url);
    await page.waitForFunction(() => Boolean((globalThis as unknown as Partial<BenchWindow>).__bench));
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Performance.enable", { timeDomain: "threadTicks" });
    for (let i = 0; i < options.warmup; i++) {
      await once(page, cdp, "glove", options);
      await once(page, cdp, "plain", options);
    }
    const samples: Sample[] = [];
    for (let rep = 0; rep < options.reps; rep++) {
      const order: ChatKind[] = rep % 2 === 0 ? ["glove", "plain"] : ["plain", "glove"];
      for (const kind of order) samples.push(await once(page, cdp, kind, options));
    }
    if (errors.length) throw new Error(`the page threw: ${errors.join("; ")}`);
    return samples;
  } finally {
    await page.close();
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface Summary {
  kind: ChatKind;
  commits: number;
  wallMs: number;
  taskMs: number;
  scriptMs: number;
  renderMs: number;
  longTasks: number;
  longTaskMs: number;
}

/** Medians per chat. */
export function summarise(samples: Sample[]): Record<ChatKind, Summary> {
  const of = (kind: ChatKind): Summary => {
    const mine = samples.filter((s) => s.kind === kind);
    const m = (pick: (s: Sample) => number) => median(mine.map(pick));
    return {
      kind,
      commits: m((s) => s.commits),
      wallMs: m((s) => s.wallMs),
      taskMs: m((s) => s.taskMs),
      scriptMs: m((s) => s.scriptMs),
      renderMs: m((s) => s.renderMs),
      longTasks: m((s) => s.longTasks),
      longTaskMs: m((s) => s.longTaskMs),
    };
  };
  return { glove: of("glove"), plain: of("plain") };
}
