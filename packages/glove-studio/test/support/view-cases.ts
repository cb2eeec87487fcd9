/**
 * Chromium tests of each studio view over a glove-server app's real stored conversations: the
 * list (filters, totals), one conversation (tool calls, questions, hostile content inert, huge
 * payloads clipped) and one turn's waterfall. Screenshots for docs/ from the SQLite run.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { ServerStorage } from "glove-server";
import { startStudio, type RunningStudio } from "glove-studio";
import { SLOW_WORK_MS } from "../../../../test-support/timeouts.js";
import { seed, startApp, type Seeded } from "./seeded-app.js";
import { HOSTILE } from "./studio-agent.js";
import { buildStudioUi, launchChromium, saveScreenshot, watchPage } from "./studio-browser.js";
import type { StorageKind } from "./storages.js";

export function describeStudioViews(kind: StorageKind, options: { screenshots: boolean }): void {
  describe(`studio views on ${kind.name}`, () => {
    let place: Awaited<ReturnType<StorageKind["create"]>>;
    let reader: ServerStorage;
    let studio: RunningStudio;
    let browser: Browser;
    let uiDir: string;
    let ids: Seeded;

    beforeAll(async () => {
      place = await kind.create();
      const app = await startApp(place.open());
      ids = await seed(app);
      await app.close();
      uiDir = await buildStudioUi();
      reader = place.open();
      studio = await startStudio({ storage: reader, port: 0, source: kind.name, uiDir });
      browser = await launchChromium();
    }, SLOW_WORK_MS);
    afterAll(async () => {
      await browser?.close();
      await studio?.close();
      await reader?.close?.();
      await place?.dispose();
      if (uiDir) rmSync(uiDir, { recursive: true, force: true });
    });

    async function open(hash = ""): Promise<{ page: Page; errors: string[] }> {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const { errors } = watchPage(page);
      await page.goto(`${studio.url}${hash}`);
      return { page, errors };
    }
    const shoot = async (page: Page, name: string) => {
      if (options.screenshots) await saveScreenshot(page, name);
    };

    it("lists the conversations with totals, and filters them", async () => {
      const { page, errors } = await open();
      await expect.poll(() => page.getByTestId("conversation-row").count()).toBe(6);
      await expect
        .poll(() => page.getByTestId("totals").innerText())
        .toMatch(/^6 conversations · tokens in [\d,]+ · out [\d,]+$/);
      await expect.poll(() => page.locator('[data-testid="conversation-row"] [data-status="waiting"]').count()).toBe(1);
      await expect.poll(() => page.locator('[data-testid="conversation-row"] [data-status="error"]').count()).toBe(1);
      await expect.poll(() => page.getByTestId("source").innerText()).toContain(kind.name);
      await shoot(page, "list");

      await page.getByLabel("Status").selectOption("waiting");
      await page.getByRole("button", { name: "Apply" }).click();
      await expect.poll(() => page.getByTestId("conversation-row").count()).toBe(1);
      await expect.poll(() => page.getByTestId("totals").innerText()).toMatch(/^1 conversation · /);

      await page.getByLabel("Status").selectOption("");
      await page.getByLabel("Agent").fill("researcher");
      await page.getByRole("button", { name: "Apply" }).click();
      await expect.poll(() => page.getByTestId("conversation-row").count()).toBe(2);
      await page.getByLabel("Agent").fill("");
      await page.getByLabel("Search").fill("lisbon");
      await page.getByRole("button", { name: "Apply" }).click();
      await expect
        .poll(() => page.getByTestId("conversation-row").allInnerTexts())
        .toEqual([expect.stringContaining("weather Lisbon")]);
      await page.getByTestId("conversation-row").click();
      await expect.poll(() => page.getByTestId("conversation-title").innerText()).toBe("weather Lisbon");
      expect(errors).toEqual([]);
    });

    it("lists a conversation updated during the chosen 'to' day, in the viewer's time zone", async () => {
      // Honolulu is 10 hours behind UTC: its day and the UTC day differ for much of the day.
      const timezoneId = "Pacific/Honolulu";
      const context = await browser.newContext({ timezoneId, viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const { errors } = watchPage(page);
      const listed = (await (await fetch(`${studio.url}api/conversations?limit=200`)).json()) as {
        items: Array<{ updatedAt: string }>;
      };
      const localDay = (iso: string) =>
        new Intl.DateTimeFormat("en-CA", { timeZone: timezoneId }).format(new Date(iso));
      const days = listed.items.map((c) => localDay(c.updatedAt));
      const newestDay = days[0]!;
      const dayBefore = localDay(new Date(Date.parse(`${newestDay}T12:00:00-10:00`) - 86_400_000).toISOString());
      await page.goto(studio.url);
      await expect.poll(() => page.getByTestId("conversation-row").count()).toBe(6);
      const rows = async (from: string, to: string) => {
        await page.getByLabel("Updated from").fill(from);
        await page.getByLabel("to", { exact: true }).fill(to);
        await page.getByRole("button", { name: "Apply" }).click();
        return page.getByTestId("totals").innerText();
      };
      const count = (n: number) => new RegExp(`^${n} conversations? · `);
      const through = (day: string) => days.filter((d) => d <= day).length;
      await expect.poll(() => rows("", newestDay)).toMatch(count(through(newestDay)));
      expect(through(newestDay)).toBe(6);
      await expect.poll(() => rows(newestDay, newestDay)).toMatch(count(days.filter((d) => d === newestDay).length));
      await expect.poll(() => rows("", dayBefore)).toMatch(count(through(dayBefore)));
      expect(errors).toEqual([]);
      await context.close();
    });

    it("shows one conversation's tool calls with input, result and status", async () => {
      const { page, errors } = await open(`#/c/${ids.weather}`);
      const calls = page.getByTestId("tool-call");
      await expect.poll(() => calls.count()).toBe(2);
      const first = await calls.first().innerText();
      expect(first).toContain("get_weather");
      expect(first).toContain('"city": "Lisbon"');
      expect(first).toContain('"sky": "sunny"');
      expect(first).toContain("ok");
      await expect.poll(() => page.getByTestId("timeline").innerText()).toContain("It is sunny in Oslo.");
      await shoot(page, "conversation");
      expect(errors).toEqual([]);
    });

    it("nests a subagent's run under the call that started it, in the timeline and the waterfall", async () => {
      const { page, errors } = await open(`#/c/${ids.delegated}`);
      const nested = page.getByTestId("nested-runs").first();
      await expect.poll(() => nested.innerText()).toContain("invoke_agent forecaster");
      expect(await nested.innerText()).toContain("execute_tool get_weather");
      await expect
        .poll(() => page.getByTestId("timeline").innerText())
        .toContain("The forecaster says: Forecast: sunny");
      await page.getByTestId("turn-link").first().click();
      const subagent = page.locator('[data-testid="span"][data-kind="subagent"]');
      await expect.poll(() => subagent.count()).toBe(1);
      // Indented under the dispatch call: deeper than the turn's own calls.
      const indent = async (locator: ReturnType<Page["locator"]>) =>
        Number(
          /padding-left:\s*([\d.]+)rem/.exec((await locator.locator(".span-name").getAttribute("style")) ?? "")?.[1],
        );
      // The subagent's model calls: its path, and no model name (the trace does not record one).
      const models = page.locator('[data-testid="span"][data-kind="model_call"] [data-testid="model"]');
      const shown = await models.allInnerTexts();
      expect(shown).toContain("forecaster · model not recorded");
      expect(shown.filter((m) => !m.includes("not recorded")).length).toBeGreaterThan(0);
      expect(await page.getByTestId("trace-limits").innerText()).toContain("its tick marks the first token");
      expect(await indent(subagent)).toBeGreaterThan(
        await indent(page.locator('[data-testid="span"][data-kind="model_call"]').first()),
      );
      expect(errors).toEqual([]);
    });

    it("shows the question waiting for a person, read-only when standalone", async () => {
      const { page } = await open(`#/c/${ids.waiting}`);
      const question = page.getByTestId("question");
      await expect.poll(() => question.getAttribute("data-status")).toBe("pending");
      expect(await question.innerText()).toContain("What name goes on the booking?");
      expect(await question.innerText()).toContain("Answer it from your app");
      expect(await page.getByRole("button", { name: "Answer" }).count()).toBe(0);
    });

    it("renders hostile content inert and clips huge payloads", async () => {
      const { page, errors } = await open(`#/c/${ids.hostile}`);
      const timeline = page.getByTestId("timeline");
      await expect.poll(() => timeline.innerText()).toContain(`Echoed: ${HOSTILE}`);
      // Shown as characters: nothing ran, no element came from the stored text.
      expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await timeline.locator("script, img, b").count()).toBe(0);
      const result = page.getByTestId("tool-call").first();
      const before = (await result.innerText()).length;
      expect(before).toBeLessThan(20_000);
      expect(await result.innerText()).toMatch(/more characters/);
      await result.getByRole("button", { name: "Show more" }).last().click();
      await expect.poll(async () => (await result.innerText()).length).toBeGreaterThan(before + 10_000);
      expect(errors).toEqual([]);
    });

    it("shows a turn's waterfall of model and tool calls", async () => {
      const { page, errors } = await open(`#/c/${ids.weather}`);
      const turns = page.getByTestId("turn-link");
      await expect.poll(() => turns.count()).toBe(2);
      await turns.last().click();
      const spans = page.getByTestId("span");
      await expect.poll(() => spans.count()).toBeGreaterThanOrEqual(3);
      expect(await page.locator('[data-testid="span"][data-kind="model_call"]').count()).toBe(2);
      const tool = page.locator('[data-testid="span"][data-kind="tool_call"]');
      expect(await tool.count()).toBe(1);
      expect(await tool.innerText()).toContain("get_weather");
      const model = await page.locator('[data-testid="span"][data-kind="model_call"]').first().innerText();
      expect(model).toMatch(/\d+ \/ \d+/);
      await shoot(page, "waterfall");
      expect(errors).toEqual([]);
    });
  });
}
