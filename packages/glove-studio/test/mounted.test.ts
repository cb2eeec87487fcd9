/**
 * The studio mounted in a glove-server (createStudio): no access without the server's
 * authentication, only for the principals `allow` admits; answers and aborts go through the
 * server's hosting, so the waiting turn resumes and the running one stops.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigurationError } from "glove-core";
import { memoryStorage, sqliteStorage } from "glove-server";
import { createStudio, STUDIO_CSP } from "glove-studio";
import { PROMPT_WAIT_MS } from "../../../test-support/timeouts.js";
import { readEvents } from "./support/event-reader.js";
import { startApp, type SeededApp } from "./support/seeded-app.js";

let app: SeededApp | undefined;
let dir: string | undefined;
afterEach(async () => {
  app?.gate.current.open();
  await app?.close();
  app = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const admins = createStudio({ allow: (principal) => principal.id === "admin" });
const start = async () => {
  dir = mkdtempSync(join(tmpdir(), "glove-studio-mounted-"));
  return (app = await startApp(sqliteStorage({ path: join(dir, "glove.db") }), { extensions: [admins] }));
};

async function studio(path: string, user: string | null, init: RequestInit = {}) {
  const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
  if (user) headers.authorization = `Bearer ${user}`;
  const response = await fetch(`${app!.url}/studio/${path}`, { ...init, headers, redirect: "manual" });
  const text = await response.text();
  return {
    status: response.status,
    text,
    headers: response.headers,
    body: (text.startsWith("{") ? JSON.parse(text) : {}) as Record<string, unknown>,
  };
}

async function until(check: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + PROMPT_WAIT_MS;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("mounted studio", () => {
  it("is never reached without the server's authentication, and only by the principals allowed", async () => {
    await start();
    await app!.converse("alice", "assistant", ["weather Rome"]);
    for (const path of ["", "api/info", "api/conversations", "assets/x.js"]) {
      const anonymous = await studio(path, null);
      expect(anonymous.status, path).toBe(401);
      expect(anonymous.text).not.toContain("Rome");
      expect((await studio(path, "alice")).status, path).toBe(403);
    }
    const page = await studio("", "admin");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toBe(STUDIO_CSP);
    const list = await studio("api/conversations", "admin");
    expect(list.body.total).toBe(1);
    expect((await studio("api/info", "admin")).body).toEqual({
      mode: "mounted",
      canAct: true,
      source: "this server's storage",
    });
    // Without the trailing slash the page's relative URLs would miss the mount.
    const bare = await fetch(`${app!.url}/studio`, { headers: { authorization: "Bearer admin" }, redirect: "manual" });
    expect(bare.status).toBe(308);
    expect(bare.headers.get("location")).toBe("/studio/");
  });

  it("answers a stored question through the server: the waiting turn resumes", async () => {
    await start();
    const id = await app!.converse("alice", "assistant", ["ask Your name?"]);
    const detail = await studio(`api/conversations/${id}`, "admin");
    const [question] = detail.body.questions as Array<{ id: string; status: string }>;
    expect(question?.status).toBe("pending");
    const refused = await studio(`api/conversations/${id}/questions/${question!.id}`, "admin", {
      method: "POST",
      body: JSON.stringify({ resolve: { name: 42 } }),
    });
    expect(refused.status).toBe(400);
    const answered = await studio(`api/conversations/${id}/questions/${question!.id}`, "admin", {
      method: "POST",
      body: JSON.stringify({ resolve: { name: "Ada" } }),
    });
    expect(answered.status).toBe(200);
    await until(async () =>
      ((await app!.api(`/conversations/${id}`)).body.messages as Array<{ text: string }>).some(
        (m) => m.text === "Thanks, Ada.",
      ),
    );
    const again = await studio(`api/conversations/${id}/questions/${question!.id}`, "admin", {
      method: "POST",
      body: JSON.stringify({ resolve: { name: "Bo" } }),
    });
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect(again.status).toBeLessThan(500);
    const after = await studio(`api/conversations/${id}`, "admin");
    expect(after.body.questions).toEqual([expect.objectContaining({ status: "resolved", answer: { name: "Ada" } })]);
    // A non-admin cannot answer either.
    expect(
      (await studio(`api/conversations/${id}/questions/${question!.id}`, "alice", { method: "POST", body: "{}" }))
        .status,
    ).toBe(403);
  });

  it("aborts a running turn through the server", async () => {
    await start();
    const created = await app!.api("/conversations", { body: {} });
    const id = created.body.id as string;
    expect((await app!.api(`/conversations/${id}/messages`, { body: { text: "slow" } })).status).toBe(202);
    await until(async () => app!.gate.current.reached);
    expect((await studio(`api/conversations/${id}`, "admin")).body.conversation).toMatchObject({ status: "running" });
    const aborted = await studio(`api/conversations/${id}/abort`, "admin", { method: "POST", body: "{}" });
    expect(aborted.status).toBe(200);
    expect(aborted.body.aborted).toBe(true);
    await until(async () => (await app!.api(`/conversations/${id}`)).body.busy === false);
    // The history stays valid: the next message runs.
    await app!.api(`/conversations/${id}/messages`, { body: { text: "hello again" } });
    await app!.waitIdle(id, "alice");
    const messages = (await app!.api(`/conversations/${id}`)).body.messages as Array<{ text: string }>;
    expect(messages.at(-1)?.text).toBe("You said: hello again");
  });

  it("streams a conversation's live events to a principal allowed in, as the server's own stream has them", async () => {
    await start();
    const id = await app!.converse("alice", "assistant", ["weather Rome"]);
    const open = (user: string, query = "") =>
      fetch(`${app!.url}/studio/api/conversations/${id}/events${query}`, {
        headers: { authorization: `Bearer ${user}` },
      });
    const denied = await open("alice");
    expect(denied.status).toBe(403);
    await denied.body?.cancel();
    const response = await open("admin");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toBe(STUDIO_CSP);
    const events = readEvents(response);
    const [ready] = await events.until((e) => e.event === "studio_ready");
    expect(JSON.parse(ready!.data)).toEqual({ resumed: false });
    expect((await app!.api(`/conversations/${id}/messages`, { body: { text: "weather Oslo" } })).status).toBe(202);
    const turn = await events.until((e) => e.event === "turn_end");
    const types = turn.map((e) => e.event);
    for (const type of ["turn_start", "text_delta", "messages_appended", "turn_end"]) expect(types).toContain(type);
    const streamed = turn
      .filter((e) => e.event === "text_delta")
      .map((e) => JSON.parse(e.data) as { text: string; agentPath?: string[] })
      .filter((d) => d.agentPath === undefined)
      .map((d) => d.text)
      .join("");
    expect(streamed).toBe("It is sunny in Oslo.");
    await events.close();

    // A page that reconnects resumes after the last event it saw.
    const start_ = turn.find((e) => e.event === "turn_start")!;
    const again = readEvents(await open("admin", `?after=${start_.id}`));
    const resumed = await again.until((e) => e.event === "turn_end");
    expect(JSON.parse(resumed[0]!.data)).toEqual({ resumed: true });
    expect(resumed.slice(1).map((e) => e.id)).toEqual(turn.slice(turn.indexOf(start_) + 1).map((e) => e.id));
    await again.close();
    expect((await studio(`api/conversations/${id}/events?after=-1`, "admin")).status).toBe(400);
    expect((await studio("api/conversations/nope/events", "admin")).status).toBe(404);
  });

  it("never answers a hostile request below it with a 5xx, signed in or not", async () => {
    await start();
    const id = await app!.converse("alice", "assistant", ["ask Your name?"]);
    const segment = fc.oneof(
      fc.constantFrom(
        "api",
        "conversations",
        id,
        "questions",
        "abort",
        "messages",
        "traces",
        "fixture",
        "events",
        "info",
        "%ff",
        "..",
      ),
      fc.string({ maxLength: 10 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { maxLength: 5 }),
        fc.constantFrom("GET", "POST", "DELETE"),
        fc.constantFrom(null, "alice", "admin"),
        fc.string({ maxLength: 60 }),
        async (segments, method, user, body) => {
          const path = segments.map((s) => (/^%|^\.\.$/.test(s) ? s : encodeURIComponent(s))).join("/");
          const headers: Record<string, string> = user ? { authorization: `Bearer ${user}` } : {};
          const response = await fetch(`${app!.url}/studio/${path}`, {
            method,
            headers,
            body: method === "GET" ? undefined : body,
            redirect: "manual",
          });
          // An event stream never ends by itself: its head is the answer.
          if (response.headers.get("content-type")?.startsWith("text/event-stream")) await response.body?.cancel();
          else await response.arrayBuffer();
          expect(response.status, `${method} ${path} as ${user}`).toBeLessThan(500);
          if (user !== "admin") expect([401, 403, 404]).toContain(response.status);
        },
      ),
      { numRuns: 120 },
    );
  });

  it("lives below the server's basePath", async () => {
    dir = mkdtempSync(join(tmpdir(), "glove-studio-mounted-"));
    app = await startApp(sqliteStorage({ path: join(dir, "glove.db") }), {
      basePath: "/api/glove",
      extensions: [admins],
    });
    const headers = { authorization: "Bearer admin" };
    const bare = await fetch(`${app.url}/api/glove/studio`, { headers, redirect: "manual" });
    expect(bare.headers.get("location")).toBe("/api/glove/studio/");
    const info = await fetch(`${app.url}/api/glove/studio/api/info`, { headers });
    expect(((await info.json()) as { mode: string }).mode).toBe("mounted");
    expect((await fetch(`${app.url}/studio/api/info`, { headers })).status).toBe(404);
  });

  it("needs allow, and a storage with an inspector", async () => {
    expect(() => createStudio(undefined as never)).toThrow(ConfigurationError);
    expect(() => createStudio({} as never)).toThrow(/allow/);
    const { inspect: _dropped, ...bare } = memoryStorage();
    app = await startApp(bare, { extensions: [admins] });
    const refused = await studio("api/conversations", "admin");
    expect(refused.status).toBe(503);
    expect((refused.body.error as { code: string }).code).toBe("GLOVE_STUDIO_NO_INSPECTOR");
  });
});
