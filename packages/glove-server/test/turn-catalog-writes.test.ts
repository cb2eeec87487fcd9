import { afterEach, describe, expect, it } from "vitest";
import { memoryStorage, type ConversationChanges, type ServerStorage } from "glove-server";
import { startServer, type TestServer } from "./support/harness.js";

// A turn writes the catalog twice: once when it starts (marked running in the same write as its
// title and last turn) and once when it ends. A queued turn is marked running when it begins.
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function countingStorage(): { storage: ServerStorage; updates: ConversationChanges[] } {
  const storage = memoryStorage();
  const updates: ConversationChanges[] = [];
  const update = storage.catalog.update.bind(storage.catalog);
  storage.catalog.update = (id, changes) => {
    updates.push({ ...changes });
    return update(id, changes);
  };
  return { storage, updates };
}

describe("catalog writes per turn", () => {
  it("a turn that starts at once writes the catalog at its start (running included) and at its end", async () => {
    const { storage, updates } = countingStorage();
    const s = await startServer({ store: storage, kit: { script: [{ text: "one" }, { text: "two" }] } });
    servers.push(s);
    const id = await s.conversation();
    const tab = s.events(id);
    await tab.waitForEvent("snapshot");
    updates.length = 0;
    for (const [n, text] of ["hi", "again"].entries()) {
      const posted = await s.api(`/conversations/${id}/messages`, { body: { text } });
      expect(posted.status).toBe(202);
      await tab.waitFor((events) => events.filter((e) => e.event === "turn_end").length === n + 1);
      // The end's write may still be in flight when turn_end arrives: wait for it.
      await tab.waitFor(() => updates.length === 2 * (n + 1));
      const [start, end] = updates.slice(2 * n);
      expect(start).toMatchObject({ runningTurnId: posted.body.turnId, lastTurnId: posted.body.turnId });
      expect(end).toMatchObject({ runningTurnId: null, lastTurnStatus: "done" });
    }
    expect(await storage.catalog.get(id)).toMatchObject({ runningTurnId: null, lastTurnStatus: "done", title: "hi" });
  });

  it("a queued turn is marked running when it begins, not when it is queued", async () => {
    const { storage, updates } = countingStorage();
    // The first turn streams for about ten seconds (one character every 20 ms): the second message,
    // sent once it has begun, is queued behind it. (A question waiting does not queue: that is a 409.)
    const long = "x".repeat(500);
    const s = await startServer({
      store: storage,
      busy: "queue",
      kit: { script: [{ text: long }, { text: "second answer" }], delayMs: 20, chunkSize: 1 },
    });
    servers.push(s);
    const id = await s.conversation();
    const tab = s.events(id);
    await tab.waitForEvent("snapshot");
    updates.length = 0;
    const first = await s.api(`/conversations/${id}/messages`, { body: { text: "first" } });
    await tab.waitForEvent("text_delta");
    const second = await s.api(`/conversations/${id}/messages`, { body: { text: "second" } });
    expect([first.status, second.status]).toEqual([202, 202]);
    const queuedWrite = updates.find((u) => u.lastTurnId === second.body.turnId);
    expect(queuedWrite).toBeDefined();
    expect(queuedWrite).not.toHaveProperty("runningTurnId");
    await tab.waitFor((events) => events.filter((e) => e.event === "turn_end").length === 2);
    await tab.waitFor(() => updates.filter((u) => u.runningTurnId === null).length === 2);
    const running = updates.filter((u) => typeof u.runningTurnId === "string").map((u) => u.runningTurnId);
    expect(running).toEqual([first.body.turnId, second.body.turnId]);
    expect(updates).toHaveLength(5); // two starts, the queued turn's begin, two ends
  });
});
