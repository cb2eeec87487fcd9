/**
 * The server's own wiring of "held in memory": a conversation with an open stream is left whole by
 * runRetention however old its catalog row says it is; once no process holds it, the same rule
 * deletes it. Real HTTP, SQLite and PostgreSQL.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../support/harness.js";
import { dropTestSchemas, PLACES } from "./support/storages.js";

let servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers) await s.close();
  servers = [];
});
afterAll(dropTestSchemas);

describe.each(PLACES)("a conversation in memory (%s)", (_label, place) => {
  it("is skipped while held, deleted once nobody holds it", async () => {
    const open = place();
    const storage = open();
    const retention = { inactiveConversationDays: 30 };
    const first = await startServer({ store: storage, retention });
    servers.push(first);
    const id = await first.conversation();
    const stream = first.events(id);
    await stream.waitForEvent("snapshot");
    const db = storage.retention!;
    const old = new Date(Date.now() - 100 * 86_400_000).toISOString();
    await db.transaction(
      [
        {
          sql: `UPDATE ${db.prefix}gloveserver_conversations SET updated_at = ${db.param(1)} WHERE id = ${db.param(2)}`,
          params: [old, id],
        },
      ],
      false,
    );
    expect(await first.server.runRetention()).toMatchObject({ ran: true, examined: 1, conversationsDeleted: 0 });
    expect((await first.api(`/conversations/${id}`)).status).toBe(200);
    await stream.close();
    await first.close();
    servers = [];

    const second = await startServer({ store: open(), retention });
    servers.push(second);
    expect(await second.server.runRetention()).toMatchObject({ ran: true, conversationsDeleted: 1 });
    expect((await second.api(`/conversations/${id}`)).status).toBe(404);
  });
});
