/**
 * A settled question stays a tombstone for retention.settledWaitDays: after a retention run, a
 * replayed answer within the window still gets 409 GLOVE_SLOT_SETTLED, while a question settled
 * before the window is gone (its replay is a 404 like any unknown slot). Two server instances on
 * one SQLite file or PostgreSQL schema, over real HTTP.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { ServerStorage } from "../../src/index.js";
import { startServer, type TestServer } from "../support/harness.js";
import { dropTestSchemas, PLACES } from "./support/storages.js";

const askAge = { toolCalls: [{ name: "ask_age", input: { question: "How old are you?" }, id: "age-1" }] };
const DAY = 86_400_000;
let servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers) await s.close();
  servers = [];
});
afterAll(dropTestSchemas);

/** Asks `user` a question in a new conversation, answers it and waits for the turn's end. */
async function answeredQuestion(s: TestServer, user: string): Promise<{ id: string; slotId: string }> {
  const id = await s.conversation(user);
  const stream = s.events(id, { user });
  await stream.waitForEvent("snapshot");
  expect((await s.api(`/conversations/${id}/messages`, { body: { text: "Ask me" }, user })).status).toBe(202);
  const pushed = await stream.waitForEvent("slot_push");
  const slotId = (pushed.data as { slot: { id: string } }).slot.id;
  expect((await s.api(`/conversations/${id}/slots/${slotId}`, { body: { resolve: { age: 42 } }, user })).status).toBe(
    200,
  );
  await stream.waitForEvent("turn_end", (data) => (data as { status: string }).status === "done");
  await stream.close();
  return { id, slotId };
}

async function settleAt(storage: ServerStorage, slotId: string, at: Date): Promise<void> {
  const db = storage.retention!;
  const changed = await db.transaction(
    [
      {
        sql: `UPDATE ${db.prefix}glove_waits SET settled_at = ${db.param(1)} WHERE id = ${db.param(2)}`,
        params: [at.toISOString(), slotId],
      },
    ],
    false,
  );
  expect(changed).toBe(1);
}

describe.each(PLACES)("the tombstone window (%s)", (_label, place) => {
  it("keeps a replayed answer a 409 within the window after a retention run", async () => {
    const open = place();
    const first = await startServer({
      store: open(),
      kit: { script: [askAge, { text: "Noted." }, askAge, { text: "Noted." }] },
    });
    servers.push(first);
    const recent = await answeredQuestion(first, "alice");
    const old = await answeredQuestion(first, "bob");
    await first.close();
    servers = [];

    const storage = open();
    await settleAt(storage, recent.slotId, new Date(Date.now() - 6 * DAY));
    await settleAt(storage, old.slotId, new Date(Date.now() - 8 * DAY));
    const second = await startServer({ store: storage, retention: { settledWaitDays: 7 } });
    servers.push(second);
    const report = await second.server.runRetention();
    expect(report).toMatchObject({ ran: true, wrapped: true });
    expect(report.rowsDeleted).toBe(1);

    const again = await second.api(`/conversations/${recent.id}/slots/${recent.slotId}`, {
      body: { resolve: { age: 43 } },
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: "GLOVE_SLOT_SETTLED" });
    const gone = await second.api(`/conversations/${old.id}/slots/${old.slotId}`, {
      body: { resolve: { age: 43 } },
      user: "bob",
    });
    expect(gone.status).toBe(404);
  });
});
