/**
 * Scrolls the studio's conversation list in Chromium page by page and reads Chrome's own counters
 * (CDP Performance.getMetrics: TaskDuration, ScriptDuration) around each page: the main-thread
 * cost of fetching and rendering one more page, and how many rows the DOM holds.
 */
import type { Browser, CDPSession } from "playwright-core";

export interface PageCost {
  /** Wall time from the scroll to the next page's rows laid out. */
  wallMs: number;
  taskMs: number;
  scriptMs: number;
}

export interface ListSample {
  conversations: number;
  /** Time to the first rows after navigation. */
  firstRowsMs: number;
  pages: PageCost[];
  /** Row elements in the DOM after the last page (virtualised: about a screenful). */
  domRows: number;
  /** Rows loaded (pages × page size + the first). */
  loadedRows: number;
}

const ROW_PX = 56;

/** The little of the page's globals used here (this file is compiled without the DOM's types; the studio's CSP forbids evaluating strings). */
interface PageGlobals {
  document: { querySelector(selector: string): { scrollHeight: number } | null };
}

async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics: list } = await cdp.send("Performance.getMetrics");
  return Object.fromEntries(list.map((m) => [m.name, m.value]));
}

/** Opens the list at `url`, then scrolls to its end `pages` times, one page load each. */
export async function measureList(
  browser: Browser,
  url: string,
  conversations: number,
  pages: number,
): Promise<ListSample> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Performance.enable");
    const t0 = Date.now();
    await page.goto(url);
    await page.getByTestId("conversation-row").first().waitFor();
    const firstRowsMs = Date.now() - t0;
    const rows = page.getByTestId("conversation-rows");
    // By shape: whether the build has the DOM library or not (the web demo's types bring part of it), el scrolls.
    const height = () => rows.evaluate((el) => (el as unknown as Scroller).scrollHeight);
    const costs: PageCost[] = [];
    for (let i = 0; i < pages; i++) {
      const before = await height();
      if (before / ROW_PX >= conversations) break;
      const m0 = await metrics(cdp);
      const w0 = Date.now();
      await rows.evaluate((el) => (el as unknown as Scroller).scrollTo(0, (el as unknown as Scroller).scrollHeight));
      await page.waitForFunction(
        (h) =>
          (globalThis as unknown as PageGlobals).document.querySelector('[data-testid="conversation-rows"]')!
            .scrollHeight > h,
        before,
      );
      const wallMs = Date.now() - w0;
      const m1 = await metrics(cdp);
      costs.push({
        wallMs,
        taskMs: ((m1.TaskDuration ?? 0) - (m0.TaskDuration ?? 0)) * 1000,
        scriptMs: ((m1.ScriptDuration ?? 0) - (m0.ScriptDuration ?? 0)) * 1000,
      });
    }
    const domRows = await page.getByTestId("conversation-row").count();
    const loadedRows = Math.round((await height()) / ROW_PX);
    return { conversations, firstRowsMs, pages: costs, domRows, loadedRows };
  } finally {
    await page.close();
  }
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? NaN : sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** What the measured list is, in the page. */
interface Scroller {
  scrollHeight: number;
  scrollTo(x: number, y: number): void;
}
