/**
 * Questions that outlive the process, on the server: a turn that only waits for a person leaves
 * memory (idle eviction, close) as "waiting" instead of interrupted; the snapshot still lists its
 * question; an answer over HTTP resumes the turn (turn_start, turn_resumed … turn_end), exactly once.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import { memoryStorage, type ServerStorage } from "glove-server";
import { startServer, type TestServer } from "./support/harness.js";
import { expectValidHistory } from "./suite/server-suite.js";
import { PROMPT_WAIT_MS } from "../../../test-support/timeouts.js";

const askAge = { toolCalls: [{ name: "ask_age", input: { question: "How old are you?" }, id: "age-1" }] };
const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start(
  storage: ServerStorage,
  script: Array<Record<string, unknown>>,
  extra: Parameters<typeof startServer>[0] = {},
): Promise<TestServer> {
  const server = await startServer({ store: storage, kit: { script }, ...extra });
  servers.push(server);
  return server;
}

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + PROMPT_WAIT_MS; !(await check());) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Sends a message whose tool asks for the user's age; resolves with the slot id once it is shown. */
async function askAndWait(s: TestServer, id: string): Promise<string> {
  const tab = s.events(id);
  await tab.waitForEvent("snapshot");
  expect((await s.api(`/conversations/${id}/messages`, { body: { text: "Register me" } })).status).toBe(202);
  const pushed = await tab.waitForEvent("slot_push");
  await tab.close();
  return (pushed.data as { slot: { id: string } }).slot.id;
}

describe("turns that wait for a person", () => {
  it("leave memory when idle, keep their question in the snapshot, and resume when answered over HTTP", async () => {
    const storage = memoryStorage();
    const s = await start(storage, [askAge, { text: "Thanks, 42 noted." }], { idleTimeoutMs: 50 });
    const id = await s.conversation();
    const slotId = await askAndWait(s, id);
    // Nobody watches and the turn only waits for a person: it is left waiting, the Glove is released.
    await until(() => s.server.liveConversations === 0);

    const snapshot = (await s.api(`/conversations/${id}`)).body;
    expect(snapshot.busy).toBe(false);
    expect(snapshot.slots).toEqual([
      expect.objectContaining({
        id: slotId,
        toolName: "ask_age",
        toolCallId: "age-1",
        mode: "wait",
        status: "pending",
      }),
    ]);

    const tab = s.events(id);
    await tab.waitForEvent("snapshot");
    // The answer is checked against the tool's resolveSchema before anything is recorded.
    const invalid = await s.api(`/conversations/${id}/slots/${slotId}`, { body: { resolve: { age: -1 } } });
    expect(invalid.status).toBe(400);
    expect((await s.api(`/conversations/${id}`)).body.slots).toHaveLength(1);

    const answered = await s.api(`/conversations/${id}/slots/${slotId}`, { body: { resolve: { age: 42 } } });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ slotId, status: "resolved", turnId: expect.any(String) });
    const end = await tab.waitForEvent("turn_end", (data) => data.turnId === answered.body.turnId);
    expect(end.data).toMatchObject({ status: "done" });
    const types = tab.events.map((e) => e.event);
    expect(types.indexOf("turn_start")).toBeLessThan(types.indexOf("turn_resumed"));
    expect(tab.events.find((e) => e.event === "turn_resumed")?.data).toMatchObject({
      turnId: answered.body.turnId,
      slotId,
      toolCallId: "age-1",
    });
    // The question was answered from the store: it is not shown again.
    expect(types).not.toContain("slot_push");

    const late = await s.api(`/conversations/${id}/slots/${slotId}`, { body: { resolve: { age: 7 } } });
    expect(late.status).toBe(409);
    const messages = (await s.api(`/conversations/${id}`)).body.messages as Message[];
    expectValidHistory(messages);
    const results = messages.flatMap((m) => m.tool_results ?? []);
    expect(results).toEqual([
      expect.objectContaining({
        call_id: "age-1",
        result: expect.objectContaining({ status: "success", data: { age: 42 } }),
      }),
    ]);
    expect(messages.at(-1)?.text).toBe("Thanks, 42 noted.");
  });

  it("close() leaves a waiting turn waiting; a server started again over the same storage resumes it", async () => {
    const storage = memoryStorage();
    const first = await start(storage, [askAge]);
    const id = await first.conversation();
    const slotId = await askAndWait(first, id);
    const watcher = first.events(id);
    await watcher.waitForEvent("snapshot");
    await first.server.close();
    await watcher.waitForEvent("turn_end");
    expect(watcher.events.find((e) => e.event === "turn_end")?.data).toMatchObject({ status: "waiting" });
    // Nothing was answered as interrupted.
    const stored = await (await storage.store(id)).getMessages();
    expect(stored.flatMap((m) => m.tool_results ?? [])).toEqual([]);

    const second = await start(storage, [{ text: "Welcome back, 30." }]);
    const snapshot = (await second.api(`/conversations/${id}`)).body;
    expect(snapshot.slots).toEqual([expect.objectContaining({ id: slotId, status: "pending" })]);
    const answered = await second.api(`/conversations/${id}/slots/${slotId}`, { body: { resolve: { age: 30 } } });
    expect(answered.status).toBe(200);
    await until(async () => (await second.api(`/conversations/${id}`)).body.busy === false);
    const messages = (await second.api(`/conversations/${id}`)).body.messages as Message[];
    expectValidHistory(messages);
    expect(messages.at(-1)?.text).toBe("Welcome back, 30.");
  });

  it("a new message while the question waits is a 409 naming it; abort withdraws it and the call ends aborted", async () => {
    const storage = memoryStorage();
    const s = await start(storage, [askAge, { text: "After the abort." }], { idleTimeoutMs: 50 });
    const id = await s.conversation();
    const slotId = await askAndWait(s, id);
    await until(() => s.server.liveConversations === 0);
    const refused = await s.api(`/conversations/${id}/messages`, { body: { text: "never mind" } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: "GLOVE_WAITING_FOR_ANSWER" });
    expect(refused.body.error.message).toContain(slotId);

    const tab = s.events(id);
    await tab.waitForEvent("snapshot");
    expect((await s.api(`/conversations/${id}/abort`, { body: {} })).body).toMatchObject({ aborted: true });
    await tab.waitForEvent("slot_settled", (data) => data.slotId === slotId);
    // An answer after the abort is refused; the history is valid, the call ended aborted.
    expect((await s.api(`/conversations/${id}/slots/${slotId}`, { body: { resolve: { age: 3 } } })).status).toBe(409);
    const after = (await s.api(`/conversations/${id}`)).body;
    expect(after.slots).toEqual([]);
    expectValidHistory(after.messages as Message[]);
    expect((after.messages as Message[]).flatMap((m) => m.tool_results ?? [])).toEqual([
      expect.objectContaining({ call_id: "age-1", result: expect.objectContaining({ status: "aborted" }) }),
    ]);
    // The conversation takes messages again.
    expect((await s.api(`/conversations/${id}/messages`, { body: { text: "next" } })).status).toBe(202);
  });

  it("regenerate, edit and switch while the question waits are 409s naming it, and change nothing (decision 0025)", async () => {
    const storage = memoryStorage();
    const s = await start(storage, [{ text: "Hello." }, { text: "Hello again." }, askAge], { idleTimeoutMs: 50 });
    const id = await s.conversation();
    const tab = s.events(id);
    await tab.waitForEvent("snapshot");
    const hello = await s.api(`/conversations/${id}/messages`, { body: { text: "hi" } });
    await tab.waitForEvent("turn_end", (data) => data.turnId === hello.body.turnId);
    const regenerated = await s.api(`/conversations/${id}/regenerate`, { body: {} });
    await tab.waitForEvent("turn_end", (data) => data.turnId === regenerated.body.turnId);
    await tab.close();
    const slotId = await askAndWait(s, id);
    await until(() => s.server.liveConversations === 0);
    const before = (await s.api(`/conversations/${id}/branches`)).body;
    const first = (before.messages as Message[])[0]!;
    for (const [path, body] of [
      [`/conversations/${id}/regenerate`, {}],
      [`/conversations/${id}/messages/${first.id}/edit`, { text: "hi again" }],
      [`/conversations/${id}/branches/${before.points[0].siblings[0].id}`, {}],
    ] as const) {
      const refused = await s.api(path, { body });
      expect(refused.status, path).toBe(409);
      expect(refused.body.error).toMatchObject({ code: "GLOVE_WAITING_FOR_ANSWER" });
      expect(refused.body.error.message).toContain(slotId);
    }
    expect((await s.api(`/conversations/${id}/branches`)).body).toEqual(before);
    expect((await s.api(`/conversations/${id}`)).body.slots).toEqual([
      expect.objectContaining({ id: slotId, status: "pending" }),
    ]);
  });

  it.each(["reject", "queue"] as const)(
    "while the asking turn is still in memory, the same 409 GLOVE_WAITING_FOR_ANSWER as after it left (busy: %s); a retried message answers its turn",
    async (busy) => {
      const s = await start(memoryStorage(), [{ text: "Hello." }, askAge], { busy });
      const id = await s.conversation();
      const tab = s.events(id);
      await tab.waitForEvent("snapshot");
      const hello = await s.api(`/conversations/${id}/messages`, { body: { text: "hi" } });
      await tab.waitForEvent("turn_end", (data) => data.turnId === hello.body.turnId);
      const asked = await s.api(`/conversations/${id}/messages`, {
        body: { text: "Register me", clientMessageId: "m-2" },
      });
      const pushed = await tab.waitForEvent("slot_push");
      const slotId = (pushed.data as { slot: { id: string } }).slot.id;
      // The turn is in memory, waiting on the question it shows.
      expect(s.server.liveConversations).toBe(1);
      expect((await s.api(`/conversations/${id}`)).body).toMatchObject({ busy: true, turnId: asked.body.turnId });
      const first = ((await s.api(`/conversations/${id}`)).body.messages as Message[])[0]!;
      for (const [path, body] of [
        [`/conversations/${id}/messages`, { text: "never mind" }],
        [`/conversations/${id}/regenerate`, {}],
        [`/conversations/${id}/messages/${first.id}/edit`, { text: "hi again" }],
        [`/conversations/${id}/branches/${first.id}`, {}],
      ] as const) {
        const refused = await s.api(path, { body });
        expect(refused.status, path).toBe(409);
        expect(refused.body.error, path).toMatchObject({ code: "GLOVE_WAITING_FOR_ANSWER" });
        expect(refused.body.error.message).toContain(slotId);
      }
      // A retry of the message that asked answers its turn rather than a refusal.
      const retry = await s.api(`/conversations/${id}/messages`, {
        body: { text: "Register me", clientMessageId: "m-2" },
      });
      expect(retry.status).toBe(202);
      expect(retry.body).toEqual({ turnId: asked.body.turnId, duplicate: true });
      const history = (await s.api(`/conversations/${id}`)).body.messages as Message[];
      expect(history.filter((m) => m.sender === "user" && m.text).map((m) => m.text)).toEqual(["hi", "Register me"]);
      await tab.close();
    },
  );

  it("an answer for a question of another conversation is a 404, and the question keeps waiting", async () => {
    const storage = memoryStorage();
    const s = await start(storage, [askAge], { idleTimeoutMs: 50 });
    const id = await s.conversation();
    const slotId = await askAndWait(s, id);
    await until(() => s.server.liveConversations === 0);
    const other = await s.conversation();
    expect((await s.api(`/conversations/${other}/slots/${slotId}`, { body: { resolve: { age: 1 } } })).status).toBe(
      404,
    );
    expect(
      (await s.api(`/conversations/${id}/slots/${slotId}`, { body: { resolve: { age: 1 } }, user: "bob" })).status,
    ).toBe(404);
    expect((await s.api(`/conversations/${id}`)).body.slots).toEqual([
      expect.objectContaining({ id: slotId, status: "pending" }),
    ]);
  });
});
