import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import type { InboxItem } from "glove-core";
import { PostgresStore } from "glove-postgres";
import { buildForChildProcesses } from "../../../../test-support/child-processes.js";
import { SseClient } from "../support/sse-client.js";
import { apiOf, killAll, startInstance, type Instance } from "./support/scale-processes.js";
import { dropRedisPrefix, dropSchema, PG_URL, REDIS_URL, uniqueName } from "./support/scale-env.js";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../../test-support/timeouts.js";

const schema = uniqueName("inbox");
const prefix = uniqueName("inbox");
let instances: Instance[] = [];
const pool = new pg.Pool({ connectionString: PG_URL, max: 2 });

beforeAll(async () => {
  buildForChildProcesses("packages/glove-server");
  instances = await Promise.all(
    [0, 1].map(() => startInstance(schema, prefix, REDIS_URL, 3000, { INBOX_POLL_MS: "50" })),
  );
}, SLOW_WORK_MS);
afterAll(async () => {
  for (const instance of instances) if (instance.stderr()) console.warn(instance.stderr().slice(-3000));
  killAll();
  await pool.end();
  await dropRedisPrefix(prefix);
  await dropSchema(schema);
});

const inboxEvents = (client: SseClient) => client.events.filter((e) => e.event === "inbox");

describe("glove-server scale mode: inbox items changed outside a turn", () => {
  it("reach the open streams on every instance as one `inbox` event each (same id), and the snapshot", async () => {
    const api = apiOf(instances[0]!.url);
    const id = (await api("/conversations", {})).body.id as string;
    const tabs = instances.map(
      (i) => new SseClient(`${i.url}/conversations/${id}/events`, { authorization: "Bearer alice" }),
    );
    await Promise.all(tabs.map((t) => t.waitForEvent("snapshot")));
    // Another process (this test) writes the conversation's inbox in PostgreSQL.
    const store = await PostgresStore.open({ pool, schema, sessionId: id });
    const item: InboxItem = {
      id: "i1",
      tag: "restock",
      request: "When is oat milk back?",
      response: null,
      status: "pending",
      blocking: false,
      created_at: new Date().toISOString(),
      resolved_at: null,
    };
    await store.addInboxItem(item);
    for (const tab of tabs)
      await tab.waitForEvent("inbox", (d) => (d.items as InboxItem[])[0]?.status === "pending", PROMPT_WAIT_MS);
    await store.updateInboxItem("i1", {
      status: "resolved",
      response: "Tuesday.",
      resolved_at: new Date().toISOString(),
    });
    for (const tab of tabs)
      await tab.waitForEvent("inbox", (d) => (d.items as InboxItem[])[0]?.status === "resolved", PROMPT_WAIT_MS);
    await new Promise((resolve) => setTimeout(resolve, 300)); // several polls on both instances: still no repeat
    const [a, b] = tabs.map(inboxEvents) as [ReturnType<typeof inboxEvents>, ReturnType<typeof inboxEvents>];
    expect(a.map((e) => (e.data as { items: InboxItem[] }).items.map((i) => i.status))).toEqual([
      ["pending"],
      ["resolved"],
    ]);
    expect(b.map((e) => e.id)).toEqual(a.map((e) => e.id));
    const snapshot = (await apiOf(instances[1]!.url)(`/conversations/${id}`)).body as { inbox: InboxItem[] };
    expect(snapshot.inbox).toMatchObject([{ id: "i1", status: "resolved", response: "Tuesday." }]);
    await Promise.all(tabs.map((t) => t.close()));
  });
});
