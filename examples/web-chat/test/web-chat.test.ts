import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import { startWebChat, type WebChat } from "../src/app.js";
import { EventStream, type SseEvent } from "./sse.js";

const TOKEN = "test-token";
let dataDir: string;
/** A stand-in for the built UI (the browser tests build the real one). */
let uiDir: string;
let chat: WebChat | undefined;
const streams: EventStream[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "glove-web-chat-"));
  uiDir = join(dataDir, "ui");
  await mkdir(join(uiDir, "assets"), { recursive: true });
  await writeFile(
    join(uiDir, "index.html"),
    '<!doctype html><title>Glove Bistro</title><script type="module" src="/assets/app-1.js"></script>',
  );
  await writeFile(join(uiDir, "assets", "app-1.js"), "console.log(1);");
  await writeFile(join(dataDir, "secret.txt"), "not for the web");
});
afterEach(async () => {
  await Promise.all(streams.splice(0).map((s) => s.close()));
  await chat?.close();
  chat = undefined;
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** The app as `npm start` runs it, on a free port, offline (no provider keys in `env`). */
async function start(): Promise<WebChat> {
  chat = await startWebChat({ port: 0, dataDir, uiDir, token: TOKEN, env: {}, offlineDelayMs: 1 });
  return chat;
}

async function api(
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string>; auth?: boolean } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.auth !== false) headers.authorization = `Bearer ${TOKEN}`;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${chat!.url}/api${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies of many shapes
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as any };
}

function events(id: string): EventStream {
  const stream = new EventStream(`${chat!.url}/api/conversations/${id}/events`, { authorization: `Bearer ${TOKEN}` });
  streams.push(stream);
  return stream;
}

const text = (events: SseEvent[], from = 0) =>
  events
    .slice(from)
    .filter((e) => e.event === "text_delta")
    .map((e) => (e.data as { text: string }).text)
    .join("");

type Slot = {
  id: string;
  renderer: string;
  mode: string;
  status: string;
  displayStrategy: string | null;
  toolName: string | null;
  input: Record<string, unknown>;
};
const slotOf = (e: SseEvent) => (e.data as { slot: Slot }).slot;
type Todo = { content: string; status: string };

describe("web-chat example", () => {
  it("serves the built UI at / with a demo cookie that authenticates the API; anything else is refused", async () => {
    const app = await start();
    const page = await fetch(`${app.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain("<title>Glove Bistro");
    const asset = await fetch(`${app.url}/assets/app-1.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(asset.headers.get("cache-control")).toContain("immutable");
    expect(asset.headers.getSetCookie()).toEqual([]);
    expect(await asset.text()).toBe("console.log(1);");
    expect((await fetch(`${app.url}/assets/missing.js`)).status).toBe(404);
    expect((await fetch(`${app.url}/assets/..%2F..%2Fsecret.txt`)).status).toBe(404);
    expect((await fetch(`${app.url}/assets/%E0%A4%A`)).status).toBe(404);
    const cookie = page.headers.getSetCookie()[0]!.split(";")[0]!;
    expect(cookie).toMatch(/^demo_user=[0-9a-f-]{36}$/);

    // The cookie is a (demo) identity: the browser's conversations are its own.
    const asBrowser = await api("/conversations", { auth: false, headers: { cookie }, body: {} });
    expect(asBrowser.status).toBe(201);
    expect(asBrowser.body.agent).toBe("bistro");
    expect(
      (await api("/conversations", { auth: false, headers: { cookie } })).body.conversations.map(
        (c: { id: string }) => c.id,
      ),
    ).toEqual([asBrowser.body.id]);
    expect((await api(`/conversations/${asBrowser.body.id}`)).status).toBe(404);

    expect((await api("/conversations", { auth: false })).status).toBe(401);
    expect((await api("/conversations", { auth: false, headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    expect((await api("/conversations", { auth: false, headers: { cookie: "demo_user=not-a-uuid" } })).status).toBe(
      401,
    );
    // A page on another site cannot post with the cookie.
    expect(
      (await api("/conversations", { auth: false, headers: { cookie, origin: "https://evil.example" }, body: {} }))
        .status,
    ).toBe(403);
    expect((await fetch(`${app.url}/nothing-here`)).status).toBe(404);
  });

  it("says how to build the UI when it is not built, with the API still up", async () => {
    chat = await startWebChat({ port: 0, dataDir, uiDir: join(dataDir, "no-ui"), token: TOKEN, env: {} });
    const page = await fetch(`${chat.url}/`);
    expect(page.status).toBe(503);
    expect(await page.text()).toContain("npm start");
    expect((await api("/conversations")).status).toBe(200);
  });

  it("plays the offline walkthrough over HTTP + SSE: streamed text, a card, a form, a permission, tasks", async () => {
    const app = await start();
    expect(app.model.kind).toBe("offline");
    const created = await api("/conversations", { body: {} });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const stream = events(id);
    await stream.next("snapshot");

    // 1. Streamed text.
    expect((await api(`/conversations/${id}/messages`, { body: { text: "What can you do?" } })).status).toBe(202);
    await stream.next("turn_end", (d) => d.status === "done");
    expect(text(stream.events)).toMatch(/^Hello! I'm the Glove Bistro assistant/);
    expect(stream.events.filter((e) => e.event === "text_delta").length).toBeGreaterThan(20);

    // 2. A booking: tasks, the menu card (pushAndForget + renderData), then the form (pushAndWait).
    let from = stream.events.length;
    const sent = await api(`/conversations/${id}/messages`, {
      body: { text: "Book a table for two tonight", clientMessageId: "m-2" },
    });
    expect(sent.status).toBe(202);
    const tasks = await stream.next("tasks", () => true, from);
    expect((tasks.data as { tasks: Todo[] }).tasks.map((t) => t.status)).toEqual(["in_progress", "pending", "pending"]);
    const card = slotOf(await stream.next("slot_push", (d) => (d.slot as Slot).renderer === "show_menu", from));
    expect(card).toMatchObject({ mode: "forget", status: "shown", toolName: "show_menu", displayStrategy: "stay" });
    expect((card.input as { dishes: unknown[] }).dishes).toHaveLength(4);
    const menuResult = await stream.next("tool_use_result", (d) => d.tool_name === "show_menu", from);
    expect((menuResult.data as { result: { renderData: { title: string } } }).result.renderData.title).toBe(
      "Today's menu",
    );
    const form = slotOf(await stream.next("slot_push", (d) => (d.slot as Slot).renderer === "reservation_form", from));
    expect(form).toMatchObject({
      mode: "wait",
      status: "pending",
      displayStrategy: "hide-on-complete",
      toolName: "reservation_form",
    });
    expect(form.input).toMatchObject({ guests: 2 });

    // A reload sees the pending form in the snapshot.
    const snapshot = await api(`/conversations/${id}`);
    expect(snapshot.body.busy).toBe(true);
    expect(snapshot.body.slots.find((s: Slot) => s.id === form.id)?.status).toBe("pending");

    // Answers are checked against the tool's resolveSchema; the slot keeps waiting for a valid one.
    const invalid = await api(`/conversations/${id}/slots/${form.id}`, {
      body: { resolve: { name: "", guests: 40, time: "7pm" } },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.issues.map((i: { path: string }) => i.path).sort()).toEqual(["guests", "name", "time"]);
    const valid = await api(`/conversations/${id}/slots/${form.id}`, {
      body: { resolve: { name: "Ada", guests: 2, time: "19:30" } },
    });
    expect(valid).toMatchObject({ status: 200, body: { status: "resolved" } });
    await stream.next("slot_settled", (d) => d.slotId === form.id && d.status === "resolved", from);
    expect(
      (
        await api(`/conversations/${id}/slots/${form.id}`, {
          body: { resolve: { name: "Eve", guests: 1, time: "20:00" } },
        })
      ).status,
    ).toBe(409);

    // 3. book_table needs permission: glove-core pushes a permission_request slot.
    const permission = slotOf(
      await stream.next("slot_push", (d) => (d.slot as Slot).renderer === "permission_request", from),
    );
    expect(permission).toMatchObject({ mode: "wait", toolName: "book_table" });
    expect(permission.input).toMatchObject({
      tool_name: "book_table",
      input: { name: "Ada", guests: 2, time: "19:30" },
    });
    expect((await api(`/conversations/${id}/slots/${permission.id}`, { body: { resolve: true } })).status).toBe(200);
    const end = await stream.next("turn_end", (d) => d.turnId === sent.body.turnId, from);
    expect(end.data).toMatchObject({ status: "done" });
    const booked = await stream.next("tool_use_result", (d) => d.tool_name === "book_table", from);
    expect((booked.data as { result: { status: string; renderData: { code: string } } }).result).toMatchObject({
      status: "success",
      renderData: { code: "GB-1001" },
    });
    expect([...app.bookings.keys()]).toEqual(["GB-1001"]);
    const lastTasks = stream.events
      .slice(from)
      .filter((e) => e.event === "tasks")
      .at(-1)!;
    expect((lastTasks.data as { tasks: Todo[] }).tasks.every((t) => t.status === "completed")).toBe(true);
    expect(text(stream.events, from)).toContain("confirmation GB-1001");

    // The same clientMessageId again does not start a second booking.
    expect(
      (
        await api(`/conversations/${id}/messages`, {
          body: { text: "Book a table for two tonight", clientMessageId: "m-2" },
        })
      ).body,
    ).toMatchObject({
      turnId: sent.body.turnId,
      duplicate: true,
    });

    // 4. Abort while the form waits: the turn ends aborted and the form is closed.
    from = stream.events.length;
    await api(`/conversations/${id}/messages`, { body: { text: "Reserve a table" } });
    const second = slotOf(
      await stream.next("slot_push", (d) => (d.slot as Slot).renderer === "reservation_form", from),
    );
    const aborted = await api(`/conversations/${id}/abort`, { body: {} });
    expect(aborted.body).toMatchObject({ aborted: true, status: "aborted" });
    await stream.next("slot_settled", (d) => d.slotId === second.id && d.status === "closed", from);
    await stream.next("turn_end", (d) => d.status === "aborted", from);

    // 5. Permission denied: nothing is booked and the agent says so.
    from = stream.events.length;
    await api(`/conversations/${id}/messages`, { body: { text: "Book a table for 4" } });
    const third = slotOf(await stream.next("slot_push", (d) => (d.slot as Slot).renderer === "reservation_form", from));
    expect(third.input).toMatchObject({ guests: 4 });
    await api(`/conversations/${id}/slots/${third.id}`, {
      body: { resolve: { name: "Grace", guests: 4, time: "12:15" } },
    });
    const ask = slotOf(await stream.next("slot_push", (d) => (d.slot as Slot).renderer === "permission_request", from));
    await api(`/conversations/${id}/slots/${ask.id}`, { body: { resolve: false } });
    await stream.next("turn_end", (d) => d.status === "done", from);
    expect(text(stream.events, from)).toContain("I did not book the table");
    expect(app.bookings.size).toBe(1);

    // The history is valid (every tool call answered) and lives in the SQLite file.
    const final = await api(`/conversations/${id}`);
    const messages = final.body.messages as Message[];
    const calls = messages.flatMap((m) => m.tool_calls ?? []).map((c) => c.id);
    const results = messages.flatMap((m) => m.tool_results ?? []).map((r) => r.call_id);
    expect(new Set(calls).size).toBe(calls.length);
    expect([...results].sort()).toEqual([...calls].sort());
    await stream.close();
    await app.close();

    chat = await start();
    const resumed = await api(`/conversations/${id}`);
    expect(resumed.body.messages).toHaveLength(messages.length);
    expect(resumed.body.title).toBe("What can you do?");
  });

  it("uses the terminal agent's provider selection when a key is set", async () => {
    chat = await startWebChat({ port: 0, dataDir, token: TOKEN, env: { ANTHROPIC_API_KEY: "sk-test" } });
    expect(chat.model).toEqual({ kind: "live", provider: "anthropic" });
  });
});
