/**
 * "Why did the model do that?" (decision 0055): the request inspector over a SQLite storage whose
 * turns were recorded from a real adapter talking to a provider on 127.0.0.1. The API gives each
 * call's exact request back and the diff against the turn's previous call; the waterfall shows
 * time to first token and each retry attempt; the timeline links an answer to its request; no
 * response and no page ever holds the API key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResolvedRequest, ServerStorage, TurnTrace } from "glove-server";
import { SLOW_WORK_MS } from "../../../test-support/timeouts.js";
import { INSPECT_API_KEY, recordedConversation, type RecordedConversation } from "./support/recorded-calls.js";
import { sqliteKind } from "./support/storages.js";
import { studioInChromium, type StudioInChromium } from "./support/studio-in-chromium.js";
import { saveScreenshot, watchPage } from "./support/studio-browser.js";

describe("studio request inspector", () => {
  let place: Awaited<ReturnType<typeof sqliteKind.create>>;
  let writer: ServerStorage;
  let reader: ServerStorage;
  let recorded: RecordedConversation;
  let shown: StudioInChromium;
  const apiTexts: string[] = [];
  const get = async <T>(path: string): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${shown.studio.url}api/${path}`);
    const text = await response.text();
    apiTexts.push(text);
    return { status: response.status, body: JSON.parse(text) as T };
  };

  beforeAll(async () => {
    place = await sqliteKind.create();
    writer = place.open();
    recorded = await recordedConversation(writer);
    reader = place.open();
    shown = await studioInChromium(reader, sqliteKind.name);
  }, SLOW_WORK_MS);
  afterAll(async () => {
    await shown?.close();
    await reader?.close?.();
    await writer?.close?.();
    await recorded?.provider.close();
    await place?.dispose();
  });

  it("lists calls without their bodies, and gives each call's exact request with the diff from the previous one", async () => {
    const { id, provider } = recorded;
    const trace = (await get<TurnTrace>(`conversations/${id}/traces/t1`)).body;
    expect(trace.calls).toHaveLength(2);
    expect(trace.calls!.every((c) => c.request.added.length === 0 && c.answer?.text === undefined)).toBe(true);
    const [first, second] = trace.calls!;

    const call = (await get<ResolvedRequest>(`conversations/${id}/traces/t1/calls/${second!.callId}`)).body;
    // received[0] was the 429; [1] the first call's retry; [2] the second call.
    expect(call.body).toEqual(JSON.parse(provider.received[2]!.raw));
    expect(call.previous?.callId).toBe(first!.callId);
    expect(call.previous?.keptMessages).toBe(2);
    expect(call.previous?.added).toHaveLength(2);
    const later = (
      await get<ResolvedRequest>(
        `conversations/${id}/traces/t2/calls/${(await get<TurnTrace>(`conversations/${id}/traces/t2`)).body.calls![0]!.callId}`,
      )
    ).body;
    expect(later.body).toEqual(JSON.parse(provider.received[3]!.raw));
    expect(later.previous).toBeUndefined();

    const missing = await get<{ error: { code: string } }>(`conversations/${id}/traces/t1/calls/nope`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("GLOVE_STUDIO_NOT_FOUND");
    expect((await get(`conversations/${id}`)).status).toBe(200);
    expect(apiTexts.join("\n")).not.toContain(INSPECT_API_KEY);
  });

  it("shows time to first token, each attempt, and the request with what changed, in the waterfall", async () => {
    const page = await shown.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const { errors } = watchPage(page);
    await page.goto(`${shown.studio.url}#/c/${recorded.id}/t/t1`);
    const rows = page.locator('[data-testid="span"][data-kind="model_call"]');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).getByTestId("ttft").innerText()).toMatch(/\d+ ms|\d\.\d+ s/);
    expect(await rows.nth(0).getByTestId("bar-attempt").count()).toBe(2);
    expect(await rows.nth(0).getByTestId("bar-ttft").count()).toBe(1);
    const attempts = await page.getByTestId("attempts").innerText();
    expect(attempts).toContain("attempt 1:");
    expect(attempts).toContain("retried — 429 fake_error: slow down; waited 40 ms");
    expect(attempts).toContain("attempt 2:");

    await rows.nth(1).getByTestId("show-request").click();
    const inspector = page.getByTestId("request-inspector");
    await inspector.waitFor();
    expect(await inspector.getByTestId("request-target").innerText()).toContain("openai · gpt-4o-mini · POST");
    expect(await inspector.getByTestId("request-rest").innerText()).toContain("get_weather");
    expect(await inspector.getByTestId("request-diff").innerText()).toContain(
      "2 messages the same, 2 messages new; system prompt, tools and options unchanged.",
    );
    expect(await inspector.getByTestId("diff-added").innerText()).toContain('"role": "tool"');
    expect(await inspector.getByTestId("request-answer").innerText()).toContain("Sunny in Tokyo.");
    expect(await page.content()).not.toContain(INSPECT_API_KEY);
    await saveScreenshot(page, "request-inspector");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("links an answer in the timeline to the request that produced it", async () => {
    const page = await shown.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const { errors } = watchPage(page);
    await page.goto(`${shown.studio.url}#/c/${recorded.id}`);
    const links = page.getByTestId("request-link");
    // The tool call's answer, the text answer of t1, the answer of t2.
    await expect.poll(() => links.count()).toBe(3);
    await links.nth(2).click();
    const inspector = page.getByTestId("request-inspector");
    await inspector.waitFor();
    expect(await inspector.getByTestId("request-answer").innerText()).toContain("You are welcome.");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("treats a damaged or hostile stored request log as data: no 5xx, nothing runs", async () => {
    const hostile = "<img src=x onerror=window.__pwned=1>";
    await writer.inspect!.traces.save({
      conversationId: recorded.id,
      turnId: "t-hostile",
      startedAt: new Date().toISOString(),
      endedAt: new Date().toISOString(),
      status: "completed",
      truncated: false,
      spans: [
        {
          spanId: "s-hostile",
          parentSpanId: null,
          name: "chat evil",
          kind: "model_call",
          startMs: Date.now(),
          durationMs: 5,
          status: "ok",
          attributes: { "glove.attempts": "{not json", "glove.time_to_first_token_ms": "soon" },
        },
      ],
      calls: [
        "not a call",
        { callId: "huge", request: { form: "wire", keep: 1e12, added: [], count: 1, marks: [] } },
        {
          callId: "evil",
          spanId: "s-hostile",
          adapter: hostile,
          startedAt: 0,
          contextMessages: 0,
          request: { form: "wire", keep: 0, added: [hostile], count: 1, marks: [], listKey: "messages", rest: hostile },
          answer: { text: 5, toolCalls: "no", reasoning: hostile },
        },
      ] as unknown as TurnTrace["calls"],
    });
    const base = `conversations/${recorded.id}/traces/t-hostile`;
    const listed = await get<TurnTrace>(base);
    expect(listed.status).toBe(200);
    expect(listed.body.calls!.map((c) => c.callId)).toEqual(["evil"]);
    expect((await get(`${base}/calls/huge`)).status).toBe(404);
    const evil = await get<ResolvedRequest>(`${base}/calls/evil`);
    expect(evil.status).toBe(200);
    expect(evil.body.call.answer).toEqual({ reasoning: hostile });
    expect((await get(`conversations/${recorded.id}`)).status).toBe(200);

    const page = await shown.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const { errors } = watchPage(page);
    await page.goto(`${shown.studio.url}#/c/${recorded.id}/t/t-hostile/call/evil`);
    const inspector = page.getByTestId("request-inspector");
    await inspector.waitFor();
    // Shown as text (in closed sections: their text content), never as markup.
    expect(await inspector.getByTestId("request-messages").textContent()).toContain(hostile);
    expect(await inspector.getByTestId("request-answer").textContent()).toContain(hostile);
    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await page.locator("img").count()).toBe(0);
    await page.goto(`${shown.studio.url}#/c/${recorded.id}`);
    await page.getByTestId("timeline").waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });
});
