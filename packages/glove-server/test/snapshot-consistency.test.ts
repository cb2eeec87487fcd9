/**
 * A snapshot taken while text streams is exact: its streamingText and the events after its
 * lastEventId add up to the answer, with nothing repeated or missing — also when the store
 * answers slowly while deltas keep arriving (the snapshot's reads are awaited; the live state and
 * lastEventId must then be read together, after them).
 */
import { afterEach, describe, expect, it } from "vitest";
import { MemoryStore, type StoreAdapter } from "glove-core";
import { startServer, streamedText, type TestServer } from "./support/harness.js";

const ANSWER = Array.from({ length: 80 }, (_, i) => `word${i}`).join(" ");

/** A MemoryStore whose stored-question reads take `ms`, as a busy database's would. */
function slowWaits(ms: number): (id: string) => StoreAdapter {
  return (id) => {
    const store = new MemoryStore(id);
    const getWaits = store.getWaits.bind(store);
    store.getWaits = async (...args) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return getWaits(...args);
    };
    return store;
  };
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("snapshots while text streams", () => {
  it("streamingText + the deltas after lastEventId is the answer, for late readers joining at many points", async () => {
    server = await startServer({ store: slowWaits(30), kit: { script: [{ text: ANSWER }], delayMs: 4 } });
    const id = await server.conversation();
    const watcher = server.events(id);
    await watcher.waitForEvent("snapshot");
    expect((await server.api(`/conversations/${id}/messages`, { body: { text: "talk" } })).status).toBe(202);
    const late = [];
    for (let joined = 0; joined < 6; joined++) {
      await watcher.waitFor((events) => events.filter((e) => e.event === "text_delta").length >= 5 + joined * 10);
      late.push(server.events(id));
    }
    await watcher.waitForEvent("turn_end");
    let midTurn = 0;
    for (const reader of late) {
      await reader.waitForEvent("turn_end");
      const snapshot = reader.events[0]!;
      expect(snapshot.event).toBe("snapshot");
      const data = snapshot.data as { busy: boolean; streamingText: string };
      if (data.busy) midTurn++;
      if (data.busy) expect(data.streamingText + streamedText(reader.events)).toBe(ANSWER);
    }
    // The readers joined while the answer streamed: most of them mid-turn.
    expect(midTurn).toBeGreaterThan(0);
  });
});
