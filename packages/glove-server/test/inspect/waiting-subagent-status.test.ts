/**
 * A question asked inside a durable subagent, as storage inspection sees it: the conversation is
 * "waiting" in the listing (its question lives in the subagent's store) and its trace shows the
 * call still open under the subagent run; once answered it is idle again. On every storage.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Glove, SUBAGENT_DISPATCH_TOOL_NAME, type StoreAdapter } from "glove-core";
import { ScriptedModel, type ScriptedStep } from "glove-core/testing";
import { createGloveServer, memoryStorage, sqliteStorage, type GloveServer, type ServerStorage } from "glove-server";
import { postgresStorage } from "glove-server/postgres";
import { authenticate } from "../support/harness.js";
import { SseClient } from "../support/sse-client.js";
import { postgresSchemas } from "./pg-schemas.js";

const { pool, schema } = postgresSchemas("glove_inspect_sub");
const servers: GloveServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** main → helper (durable store) → `pick_day`, which asks a person. */
function agent(main: ScriptedStep[], helper: ScriptedStep[]) {
  return ({ store }: { store: StoreAdapter }) =>
    new Glove({ store, model: new ScriptedModel(main), systemPrompt: "main" }).defineSubAgent({
      name: "helper",
      factory: async ({ parentStore, displayManager }) =>
        new Glove({ model: new ScriptedModel(helper), displayManager, systemPrompt: "helper" })
          .fold({
            name: "pick_day",
            description: "Asks which day.",
            inputSchema: z.object({}),
            do: async (_input, display) =>
              `on ${(await display.pushAndWait<unknown, { day: string }>({ input: { question: "Which day?" } })).day}`,
          })
          .build(await parentStore.createSubAgentStore!("helper", { durable: true })),
    });
}

async function serve(storage: ServerStorage, main: ScriptedStep[], helper: ScriptedStep[]) {
  const server = createGloveServer({ agents: { assistant: agent(main, helper) }, authenticate, store: storage });
  servers.push(server);
  const { url } = await server.listen();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies of many shapes
  const api = async (path: string, body?: unknown): Promise<any> =>
    (
      await fetch(url + path, {
        method: body === undefined ? "GET" : "POST",
        headers: { authorization: "Bearer alice", "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    ).json();
  return { server, url, api };
}

const storages: Array<[string, () => ServerStorage]> = [
  ["memory", () => memoryStorage()],
  // A handle the servers do not own: the second server opens the same data after the first closed.
  [
    "SQLite",
    () =>
      sqliteStorage({
        database: new BetterSqlite3(join(mkdtempSync(join(tmpdir(), "glove-inspect-sub-")), "glove.db")),
      }),
  ],
  ["PostgreSQL", () => postgresStorage({ pool, schema: schema() })],
];

describe.each(storages)("a subagent's question on %s storage", (_label, make) => {
  it("lists the conversation as waiting, its trace open under the subagent run; answered, it is idle", async () => {
    const storage = make();
    const first = await serve(
      storage,
      [
        {
          toolCalls: [
            { name: SUBAGENT_DISPATCH_TOOL_NAME, input: { name: "helper", prompt: "Pick a day." }, id: "c-main" },
          ],
        },
      ],
      [{ toolCalls: [{ name: "pick_day", input: {}, id: "c-pick" }] }],
    );
    const id = (await first.api("/conversations", {})).id as string;
    const tab = new SseClient(`${first.url}/conversations/${id}/events`, { authorization: "Bearer alice" });
    await tab.waitForEvent("snapshot");
    const { turnId } = await first.api(`/conversations/${id}/messages`, { text: "Plan it" });
    const slotId = ((await tab.waitForEvent("slot_push")).data as { slot: { id: string } }).slot.id;
    await first.server.close(); // the turn only waits for a person: it is left waiting
    await tab.close();

    const waiting = await storage.inspect!.listConversations({ limit: 10, status: "waiting" });
    expect(waiting.items.map((c) => [c.id, c.status])).toEqual([[id, "waiting"]]);
    const trace = await storage.inspect!.traces.get(id, turnId);
    expect(trace?.status).toBe("waiting");
    const byName = Object.fromEntries(trace!.spans.map((s) => [s.name, s]));
    expect(byName["invoke_agent helper"]?.parentSpanId).toBe(
      byName[`execute_tool ${SUBAGENT_DISPATCH_TOOL_NAME}`]?.spanId,
    );
    expect(byName["execute_tool pick_day"]).toMatchObject({
      status: "running",
      parentSpanId: byName["invoke_agent helper"]?.spanId,
      attributes: expect.objectContaining({ "glove.agent_path": "helper" }),
    });

    const second = await serve(storage, [{ text: "Monday it is." }], [{ text: "Monday." }]);
    await second.api(`/conversations/${id}/slots/${slotId}`, { resolve: { day: "Monday" } });
    while ((await second.api(`/conversations/${id}`)).busy) await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await storage.inspect!.listConversations({ limit: 10 })).items.map((c) => [c.id, c.status])).toEqual([
      [id, "idle"],
    ]);
    expect((await storage.inspect!.listConversations({ limit: 10, status: "waiting" })).total).toBe(0);
  });
});
