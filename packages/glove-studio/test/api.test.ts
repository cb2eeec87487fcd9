/**
 * The standalone studio's JSON API over a glove-server app's SQLite file, with conversations the
 * app stored through real turns; hostile requests get 4xx, never 5xx.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteStorage, type ServerStorage } from "glove-server";
import { testSqliteDriver } from "../../../test-support/sqlite-driver.js";
import { startStudio, STUDIO_CSP, type ConversationDetail, type RunningStudio } from "glove-studio";
import { seed, startApp, type Seeded, type SeededApp } from "./support/seeded-app.js";
import { Gate, HOSTILE, studioAgent } from "./support/studio-agent.js";

let dir: string;
let app: SeededApp;
let ids: Seeded;
let reader: ServerStorage;
let studio: RunningStudio;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "glove-studio-api-"));
  app = await startApp(sqliteStorage({ path: join(dir, "glove.db"), driver: testSqliteDriver }));
  ids = await seed(app);
  // Closed, the app keeps the question waiting in the file (its turn leaves memory as "waiting").
  await app.close();
  // As the CLI does: its own handle on the app's file, while the app keeps running.
  reader = sqliteStorage({ path: join(dir, "glove.db"), driver: testSqliteDriver });
  studio = await startStudio({ storage: reader, port: 0, source: "glove.db" });
});
afterAll(async () => {
  await studio?.close();
  await reader?.close?.();
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = async (path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(studio.url + path, { headers });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // a page or a fixture
  }
  return { status: response.status, body: body as Record<string, unknown>, headers: response.headers, text };
};

describe("conversation list", () => {
  it("lists every owner's conversations with totals, newest first", async () => {
    const { status, body } = await get("api/conversations");
    expect(status).toBe(200);
    expect(body.total).toBe(6);
    const items = body.items as Array<{ id: string; owner: string; status: string }>;
    expect(items.map((c) => c.id).sort()).toEqual(Object.values(ids).sort());
    const updated = items.map((c) => (c as unknown as { updatedAt: string }).updatedAt);
    expect(updated).toEqual([...updated].sort().reverse());
    expect((body.tokens as { in: number }).in).toBeGreaterThan(0);
    expect(items.find((c) => c.id === ids.waiting)?.status).toBe("waiting");
    expect(items.find((c) => c.id === ids.failed)?.status).toBe("error");
  });

  it("filters by agent, owner, status, text and date, and pages with the cursor", async () => {
    const ids_ = async (query: string) =>
      ((await get(`api/conversations?${query}`)).body.items as Array<{ id: string }>).map((c) => c.id).sort();
    expect(await ids_("agent=researcher")).toEqual([ids.bobs, ids.waiting].sort());
    expect(await ids_("owner=bob")).toEqual([ids.bobs, ids.delegated].sort());
    expect(await ids_("status=waiting")).toEqual([ids.waiting]);
    expect(await ids_("status=error")).toEqual([ids.failed]);
    expect(await ids_("text=LISBON")).toEqual([ids.weather]);
    expect(await ids_("updatedTo=2000-01-01")).toEqual([]);
    // Both bounds are inclusive; a bare date is a UTC day, whole at either end.
    const all = (await get("api/conversations")).body.items as Array<{ id: string; updatedAt: string }>;
    const newest = all[0]!;
    const day = newest.updatedAt.slice(0, 10);
    const dayBefore = new Date(Date.parse(day) - 86_400_000).toISOString().slice(0, 10);
    expect(await ids_(`updatedTo=${day}`)).toContain(newest.id);
    expect(await ids_(`updatedFrom=${day}&updatedTo=${day}`)).toContain(newest.id);
    expect(await ids_(`updatedTo=${dayBefore}`)).not.toContain(newest.id);
    expect(await ids_(`updatedTo=${encodeURIComponent(newest.updatedAt)}`)).toContain(newest.id);
    expect(await ids_(`updatedFrom=${encodeURIComponent(newest.updatedAt)}`)).toEqual([newest.id]);
    const first = await get("api/conversations?limit=2");
    expect((first.body.items as unknown[]).length).toBe(2);
    expect(first.body.total).toBe(6);
    const seen = (first.body.items as Array<{ id: string }>).map((c) => c.id);
    let cursor = first.body.nextCursor as string | null;
    while (cursor) {
      const next = await get(`api/conversations?limit=2&cursor=${cursor}`);
      seen.push(...(next.body.items as Array<{ id: string }>).map((c) => c.id));
      cursor = next.body.nextCursor as string | null;
    }
    expect(seen.sort()).toEqual(Object.values(ids).sort());
  });

  it("refuses bad filters with 400 and a code", async () => {
    for (const query of [
      "limit=0",
      "limit=abc",
      "status=sleeping",
      "updatedFrom=yesterday",
      `text=${"a".repeat(201)}`,
      "cursor=not-a-cursor!",
    ]) {
      const { status, body } = await get(`api/conversations?${query}`);
      expect(status, query).toBe(400);
      expect((body.error as { code: string }).code, query).toMatch(/^GLOVE_(STUDIO_BAD_QUERY|INSPECT_)/);
    }
  });
});

describe("one conversation", () => {
  it("has its record, status, stored question, messages with tool calls and results", async () => {
    const { body } = await get(`api/conversations/${ids.waiting}`);
    const detail = body as unknown as ConversationDetail;
    expect(detail.conversation.status).toBe("waiting");
    expect(detail.questions).toEqual([
      expect.objectContaining({
        toolName: "ask_name",
        status: "pending",
        input: { question: "What name goes on the booking?" },
      }),
    ]);
    const messages = await get(`api/conversations/${ids.weather}/messages?offset=0&limit=100`);
    expect(messages.body.total).toBe(8);
    const texts = (messages.body.messages as Array<{ text: string }>).map((m) => m.text);
    expect(texts).toContain("It is sunny in Oslo.");
    const page = await get(`api/conversations/${ids.weather}/messages?offset=6&limit=5`);
    expect((page.body.messages as unknown[]).length).toBe(2);
  });

  it("lists the branches a regenerate set aside", async () => {
    expect(((await get(`api/conversations/${ids.bobs}`)).body as unknown as ConversationDetail).branches).toEqual([]);
    const agent = studioAgent({ current: new Gate() })({ store: await reader.store(ids.bobs) }).build();
    await agent.regenerate();
    const { branches } = (await get(`api/conversations/${ids.bobs}`)).body as unknown as ConversationDetail;
    expect(branches).toEqual([
      expect.objectContaining({
        at: 1,
        messages: [expect.objectContaining({ sender: "agent", text: "You said: hello from bob" })],
      }),
    ]);
  });

  it("answers unknown ids and traces with 404, and refuses actions when standalone", async () => {
    expect((await get("api/conversations/nope")).status).toBe(404);
    expect((await get(`api/conversations/${"x".repeat(5000)}/messages`)).status).toBe(404);
    expect((await get(`api/conversations/${ids.weather}/traces/nope`)).status).toBe(404);
    const answer = await fetch(`${studio.url}api/conversations/${ids.waiting}/questions/q1`, {
      method: "POST",
      body: JSON.stringify({ resolve: { name: "Ada" } }),
    });
    expect(answer.status).toBe(409);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("GLOVE_STUDIO_READ_ONLY");
    // No server, no live events: the standalone page reads the conversation again instead.
    const events = await get(`api/conversations/${ids.weather}/events`);
    expect(events.status).toBe(409);
    expect((events.body.error as { code: string }).code).toBe("GLOVE_STUDIO_NO_EVENTS");
  });

  it("finds the rows of a conversation that mention a text, a tool result on its call's row", async () => {
    const messages = (await get(`api/conversations/${ids.weather}/messages?limit=50`)).body.messages as Array<{
      text: string;
      tool_calls?: unknown[];
    }>;
    const find = async (text: string) => (await get(`api/conversations/${ids.weather}/find?text=${text}`)).body;
    const oslo = messages.findIndex((m) => m.text === "It is sunny in Oslo.");
    expect((await find("SUNNY%20IN%20OSLO")).matches).toEqual([oslo]);
    // "sunny" is in both tool results and both answers: each result counts on the row of its call.
    const calls = messages.flatMap((m, i) => (m.tool_calls?.length ? [i] : []));
    const sunny = (await find("sunny")).matches as number[];
    for (const call of calls) expect(sunny).toContain(call);
    expect(sunny).toEqual([...new Set(sunny)].sort((a, b) => a - b));
    expect(await find("no%20such%20words")).toEqual({ matches: [], truncated: false });
    expect((await get(`api/conversations/${ids.weather}/find`)).status).toBe(400);
    expect((await get("api/conversations/nope/find?text=x")).status).toBe(404);
  });

  it("returns hostile content as JSON data, never as a page", async () => {
    const { body, headers, text } = await get(`api/conversations/${ids.hostile}/messages`);
    expect(headers.get("content-type")).toMatch(/^application\/json/);
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(text).toContain(JSON.stringify(HOSTILE).slice(1, -1));
    expect(body.total).toBe(4);
  });
});

describe("serving", () => {
  it("serves the page with a strict CSP, on loopback names only", async () => {
    const page = await get("");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toBe(STUDIO_CSP);
    expect(STUDIO_CSP).toContain("script-src 'self'");
    expect(STUDIO_CSP).not.toContain("unsafe-inline");
    expect((await get("api/info")).body).toEqual({ mode: "standalone", canAct: false, source: "glove.db" });
    const { request } = await import("node:http");
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(`${studio.url}api/conversations`, { headers: { host: "attacker.example" } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(421);
  });

  it("never answers a hostile path or query with a 5xx", async () => {
    const segment = fc.oneof(
      fc.constantFrom(
        "api",
        "conversations",
        "messages",
        "traces",
        "fixture",
        "find",
        "events",
        "questions",
        "abort",
        "info",
        "..",
        "%2e%2e",
        "%ff",
        ids.weather,
      ),
      fc.string({ maxLength: 12 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { maxLength: 5 }),
        fc.string({ maxLength: 40 }),
        fc.constantFrom("GET", "POST", "DELETE", "PUT"),
        async (segments, query, method) => {
          const path = segments.map((s) => (/^%|^\.\.$/.test(s) ? s : encodeURIComponent(s))).join("/");
          const response = await fetch(
            `${studio.url}${path}?${encodeURIComponent(query)}=${encodeURIComponent(query)}`,
            { method, body: method === "GET" ? undefined : query },
          );
          await response.arrayBuffer();
          expect(response.status, `${method} ${path}`).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
  });
});
