/**
 * Chromium: a turn whose model call was retried shows it in the waterfall ("2 retries" on the
 * call's bar and in its row, the last cause on hover), and a call that failed every attempt shows
 * its retries and its error. The turns ran through a glove-server app whose agent talks to an
 * OpenAI-compatible provider on 127.0.0.1 that answers 503 and 429 before it answers.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { Glove, type StoreAdapter } from "glove-core";
import { OpenAICompatAdapter } from "glove-core/models/openai-compat";
import type { ServerStorage } from "glove-server";
import { startStudio, type RunningStudio } from "glove-studio";
import { json, sse, startFakeServer, type FakeServer } from "../../glove-core/test/models/fake-server.js";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";
import { startApp } from "./support/seeded-app.js";
import { sqliteKind } from "./support/storages.js";
import { buildStudioUi, launchChromium, watchPage } from "./support/studio-browser.js";

const busy = json(503, { error: { message: "Service unavailable", type: "server_error" } });
const limited = json(429, { error: { message: "Rate limit reached", type: "rate_limit_exceeded" } }, { "retry-after": "0" });
const answer = sse(
  [
    { id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content: "ok" }, finish_reason: null }] },
    { id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
  ],
  { done: true },
);

describe("studio waterfall: model-call retries and errors", () => {
  let place: Awaited<ReturnType<typeof sqliteKind.create>>;
  let provider: FakeServer;
  let reader: ServerStorage;
  let studio: RunningStudio;
  let browser: Browser;
  let uiDir: string;
  const turnOf = new Map<"retried" | "failed", { id: string; turnId: string }>();

  beforeAll(async () => {
    // The first conversation's call is answered on its third attempt; every later attempt fails.
    provider = await startFakeServer(busy, limited, answer, busy);
    const url = `${provider.url}/v1`;
    const agent = ({ store }: { store: StoreAdapter }) =>
      new Glove({ store, model: new OpenAICompatAdapter({ model: "m", baseURL: url, apiKey: "sk-test", retryBaseDelayMs: 1, maxRetries: 2 }), systemPrompt: "test" });
    place = await sqliteKind.create();
    const app = await startApp(place.open(), { agents: { assistant: agent } });
    for (const key of ["retried", "failed"] as const) {
      const id = await app.converse("alice", "assistant", ["hi"]);
      const [trace] = await app.storage.inspect!.traces.list(id, { limit: 1 });
      turnOf.set(key, { id, turnId: trace!.turnId });
    }
    await app.close();
    uiDir = await buildStudioUi();
    reader = place.open();
    studio = await startStudio({ storage: reader, port: 0, source: sqliteKind.name, uiDir });
    browser = await launchChromium();
  }, SLOW_WORK_MS);
  afterAll(async () => {
    await browser?.close();
    await studio?.close();
    await reader?.close?.();
    await provider?.close();
    await place?.dispose();
    if (uiDir) rmSync(uiDir, { recursive: true, force: true });
  });

  async function modelCall(which: "retried" | "failed") {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const { errors } = watchPage(page);
    const { id, turnId } = turnOf.get(which)!;
    await page.goto(`${studio.url}#/c/${encodeURIComponent(id)}/t/${encodeURIComponent(turnId)}`);
    const row = page.locator('[data-testid="span"][data-kind="model_call"]');
    await expect.poll(() => row.count()).toBe(1);
    return { row, errors };
  }

  it("a call answered after two retries says so on its bar and in its row, with the last cause on hover", async () => {
    const { row, errors } = await modelCall("retried");
    expect(await row.getByTestId("bar-note").innerText()).toBe("2 retries");
    const cell = row.getByTestId("retries");
    expect(await cell.innerText()).toBe("2 retries");
    expect(await cell.getAttribute("title")).toBe("last retry: rate_limit_exceeded: Rate limit reached");
    expect(await row.locator(".bar-error").count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("a call that failed every attempt shows its retries and its error", async () => {
    const { row, errors } = await modelCall("failed");
    expect(await row.getByTestId("bar-note").innerText()).toBe("2 retries · GLOVE_PROVIDER");
    expect(await row.getByTestId("retries").innerText()).toBe("2 retries");
    expect(await row.locator(".bar-error").count()).toBe(1);
    expect(await row.locator('[data-status="error"]').count()).toBe(1);
    expect(errors).toEqual([]);
  });
});
