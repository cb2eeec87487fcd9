/**
 * Chromium: a turn whose model call was retried shows it in the waterfall ("2 retries" on the
 * call's bar and in its row, the last cause on hover), and a call that failed every attempt shows
 * its retries and its error. The turns ran through a glove-server app whose agent talks to an
 * OpenAI-compatible provider on 127.0.0.1 that answers 503 and 429 before it answers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Glove, type StoreAdapter } from "glove-core";
import { OpenAICompatAdapter } from "glove-core/models/openai-compat";
import type { ServerStorage } from "glove-server";
import {
  openAiAnswer,
  openAiBusy as busy,
  openAiRateLimited as limited,
} from "../../glove-core/test/models/fake-openai-answers.js";
import { startFakeServer, type FakeServer } from "../../glove-core/test/models/fake-server.js";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";
import { startApp } from "./support/seeded-app.js";
import { sqliteKind } from "./support/storages.js";
import { studioInChromium, type StudioInChromium } from "./support/studio-in-chromium.js";
import { saveScreenshot, watchPage } from "./support/studio-browser.js";

const answer = openAiAnswer();

describe("studio waterfall: model-call retries and errors", () => {
  let place: Awaited<ReturnType<typeof sqliteKind.create>>;
  let provider: FakeServer;
  let reader: ServerStorage;
  let shown: StudioInChromium;
  const turnOf = new Map<"retried" | "failed", { id: string; turnId: string }>();

  beforeAll(async () => {
    // The first conversation's call is answered on its third attempt; every later attempt fails.
    provider = await startFakeServer(busy, limited, answer, busy);
    const url = `${provider.url}/v1`;
    const agent = ({ store }: { store: StoreAdapter }) =>
      new Glove({
        store,
        model: new OpenAICompatAdapter({
          model: "m",
          baseURL: url,
          apiKey: "sk-test",
          retryBaseDelayMs: 1,
          maxRetries: 2,
        }),
        systemPrompt: "test",
      });
    place = await sqliteKind.create();
    const app = await startApp(place.open(), { agents: { assistant: agent } });
    for (const key of ["retried", "failed"] as const) {
      const id = await app.converse("alice", "assistant", ["hi"]);
      const [trace] = await app.storage.inspect!.traces.list(id, { limit: 1 });
      turnOf.set(key, { id, turnId: trace!.turnId });
    }
    await app.close();
    reader = place.open();
    shown = await studioInChromium(reader, sqliteKind.name);
  }, SLOW_WORK_MS);
  afterAll(async () => {
    await shown?.close();
    await reader?.close?.();
    await provider?.close();
    await place?.dispose();
  });

  async function modelCall(which: "retried" | "failed") {
    const page = await shown.browser.newPage({ viewport: { width: 1280, height: 800 } });
    const { errors } = watchPage(page);
    const { id, turnId } = turnOf.get(which)!;
    await page.goto(`${shown.studio.url}#/c/${encodeURIComponent(id)}/t/${encodeURIComponent(turnId)}`);
    const row = page.locator('[data-testid="span"][data-kind="model_call"]');
    await expect.poll(() => row.count()).toBe(1);
    return { page, row, errors };
  }

  it("a call answered after two retries says so on its bar and in its row, with the last cause on hover", async () => {
    const { page, row, errors } = await modelCall("retried");
    expect(await row.getByTestId("bar-note").innerText()).toBe("2 retries");
    const cell = row.getByTestId("retries");
    expect(await cell.innerText()).toBe("2 retries");
    expect(await cell.getAttribute("title")).toBe("last retry: rate_limit_exceeded: Rate limit reached");
    expect(await row.locator(".bar-error").count()).toBe(0);
    // Spelled out under the call too: every attempt counted, the last cause readable without hovering.
    // …and each attempt with its own timing and cause (the timings vary: ms figures masked).
    const detail = (await page.getByTestId("retry-detail").innerText()).split("\n").filter(Boolean);
    expect(detail[0]).toBe("3 attempts (2 retries); last retry's cause: rate_limit_exceeded: Rate limit reached");
    expect(detail.slice(1).map((line) => line.replace(/\d+ ms/g, "N ms"))).toEqual([
      "attempt 1: at +N ms, N ms, retried — 503 server_error: Service unavailable; waited N ms",
      "attempt 2: at +N ms, N ms, retried — 429 rate_limit_exceeded: Rate limit reached; waited N ms",
      "attempt 3: at +N ms, N ms, answered",
    ]);
    expect(await row.getByTestId("model").innerText()).toMatch(/\bm\b/);
    // The model "m" is in no price table: the turn says so instead of a made-up cost.
    expect(await page.getByTestId("turn-cost").innerText()).toMatch(/cost \$0\.0000 \(1 call without a price\)/);
    await saveScreenshot(page, "waterfall-retries");
    expect(errors).toEqual([]);
  });

  it("a call that failed every attempt shows its retries and its error", async () => {
    const { page, row, errors } = await modelCall("failed");
    expect(await row.getByTestId("bar-note").innerText()).toBe("2 retries · GLOVE_PROVIDER");
    expect(await row.getByTestId("retries").innerText()).toBe("2 retries");
    expect(await row.locator(".bar-error").count()).toBe(1);
    expect(await row.locator('[data-status="error"]').count()).toBe(1);
    expect(await page.getByTestId("retry-detail").innerText()).toMatch(
      /^3 attempts \(2 retries\); last retry's cause: /,
    );
    expect(errors).toEqual([]);
  });
});
