import { describe, expect, it } from "vitest";
import { ScriptedModel } from "glove-core/testing";
import { postgresStorage } from "glove-server/postgres";
import type { ConversationCatalog, ServerStorage } from "../../src/storage/types.js";
import { conversationKeys } from "../../src/scale/redis/keys.js";
import { SseClient } from "../support/sse-client.js";
import {
  createConversation,
  historyOf,
  inProcessScaleEnv,
  postMessage,
  scaledServer,
  testGlove,
} from "./support/in-process.js";

const env = inProcessScaleEnv("endlapse");
const { prefix, redis } = env;

describe("glove-server scale mode: a run lock that lapses while the turn ends", () => {
  it("turn_end refused (the lock lapsed in a stall) does not complete the job: the turn is ended by the next run, once", async () => {
    const storage = postgresStorage({ pool: env.pool, schema: env.schema }) as ServerStorage;
    const catalog = storage.catalog;
    let lapsed = 0;
    // The turn's last catalog write (just before turn_end) is where a stall lets the lock lapse.
    const stalling: ConversationCatalog = {
      create: (record) => catalog.create(record),
      get: (id) => catalog.get(id),
      listByOwner: (owner, limit) => catalog.listByOwner(owner, limit),
      delete: (id) => catalog.delete(id),
      update: async (id, changes) => {
        if (changes.runningTurnId === null && lapsed++ === 0) await redis.del(conversationKeys(prefix, id).run);
        await catalog.update(id, changes);
      },
    };
    const server = scaledServer(env, ({ store }) => testGlove(store, new ScriptedModel([{ text: "Ran." }])), {
      store: { ...storage, catalog: stalling },
    });
    const { url } = await server.listen();
    const id = await createConversation(url);
    const tab = new SseClient(`${url}/conversations/${id}/events`);
    await tab.waitForEvent("snapshot");
    const sent = await postMessage(url, id, "hi");
    const { turnId } = (await sent.json()) as { turnId: string };
    expect((await tab.waitForEvent("turn_end")).data).toEqual({ turnId, status: "done" });
    expect(lapsed).toBe(2); // the refused end, then the next run's
    expect(tab.events.filter((e) => e.event === "turn_resumed")).toHaveLength(1);
    expect((await historyOf(url, id)).map((m) => m.text)).toEqual(["hi", "Ran."]);
    expect(await redis.get(conversationKeys(prefix, id).turn)).toBeNull(); // free for the next message
    await tab.close();
    await server.close();
  });
});
