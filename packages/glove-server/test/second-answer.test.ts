/**
 * A second answer to a question is a 409 — the first answer won — also once the question's turn
 * has finished (the slot is gone from the board then; the store's record of the question answers).
 * A slot id that never was stays a 404. (A question asked inside a subagent is still a 404 once
 * its call finished: its record lives in the subagent's store.)
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { memoryStorage, sqliteStorage, type ServerStorage } from "../src/index.js";
import { startServer, type TestServer } from "./support/harness.js";

const askAge = { toolCalls: [{ name: "ask_age", input: { question: "How old are you?" }, id: "age-1" }] };
let server: TestServer | undefined;
afterEach(async () => {
  await server?.server.close();
  server = undefined;
});

const storages: Array<[string, () => ServerStorage]> = [
  ["memory", () => memoryStorage()],
  ["SQLite", () => sqliteStorage({ path: join(mkdtempSync(join(tmpdir(), "glove-second-answer-")), "glove.db") })],
];

describe.each(storages)("a second answer after the turn finished (%s)", (_label, storage) => {
  it("is 409 GLOVE_SLOT_SETTLED, nothing changes, and an unknown slot stays 404", async () => {
    server = await startServer({ store: storage(), kit: { script: [askAge, { text: "Thanks, 42 noted." }] } });
    const s = server;
    const id = await s.conversation();
    const stream = s.events(id);
    await stream.waitForEvent("snapshot");
    expect((await s.api(`/conversations/${id}/messages`, { body: { text: "Ask me" } })).status).toBe(202);
    const pushed = await stream.waitForEvent("slot_push");
    const slotId = (pushed.data as { slot: { id: string } }).slot.id;
    expect((await s.api(`/conversations/${id}/slots/${slotId}`, { body: { resolve: { age: 42 } } })).status).toBe(200);
    await stream.waitForEvent("turn_end", (data) => (data as { status: string }).status === "done");
    const before = (await s.api(`/conversations/${id}`)).body;

    for (const body of [{ resolve: { age: 43 } }, { reject: "changed my mind" }]) {
      const again = await s.api(`/conversations/${id}/slots/${slotId}`, { body });
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({ code: "GLOVE_SLOT_SETTLED" });
      expect(again.body.error.message).toMatch(/is already resolved; the first answer won/);
    }
    expect((await s.api(`/conversations/${id}`)).body.messages).toEqual(before.messages);
    expect((await s.api(`/conversations/${id}/slots/never-asked`, { body: { resolve: 1 } })).status).toBe(404);
    await stream.close();
  });
});
