import { describe, expect, it } from "vitest";
import { splitAtLastCompaction } from "glove-core";
import { SqliteStore } from "glove-sqlite";
import { ask, conversationAgent } from "../conversation.js";

// Checks the benchmark's conversation does what the README says (not timing).
describe("store-load conversation", () => {
  it("compacts periodically, so the model's view stays bounded while the history grows", async () => {
    const store = new SqliteStore({ dbPath: ":memory:", sessionId: "bench" });
    const { agent, model } = conversationAgent(store);
    const views: number[] = [];
    for (let n = 0; n < 60; n++) {
      await ask(agent, model, n);
      views.push((await store.getMessagesSinceLastCompaction()).length);
    }
    const all = await store.getMessages();
    expect(all.length).toBeGreaterThan(240);
    expect(all.filter((m) => m.is_compaction).length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...views)).toBeLessThan(100);
    expect(await store.getMessagesSinceLastCompaction()).toEqual(splitAtLastCompaction(all));
    // A fresh Glove (cold Context) continues the same conversation.
    const fresh = conversationAgent(store);
    await ask(fresh.agent, fresh.model, 999);
    expect((await store.getMessages()).at(-1)?.text).toMatch(/^The answer is /);
    store.close();
  });
});
