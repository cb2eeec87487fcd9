import { describe, it } from "vitest";
import { MemoryStore } from "../../src/index.js";
import { checkWaitsAgainstModel } from "./waits-property.js";

describe("MemoryStore durable questions (fast-check)", () => {
  it("random addWait, settleWait (also two at once) and getWaits, valid and not, agree with the model after each", async () => {
    // The same instance per session: MemoryStore keeps its data in the instance.
    const sessions = new Map<string, MemoryStore>();
    await checkWaitsAgainstModel(
      async (sessionId) => {
        let store = sessions.get(sessionId);
        if (!store) sessions.set(sessionId, (store = new MemoryStore(sessionId)));
        return store;
      },
      Number(process.env.GLOVE_FUZZ_RUNS ?? 200),
    );
  });
});
