import { describe, expect, it } from "vitest";
import { defineDataset, EvalHarness, memoryEvalStorage, scriptedPerson } from "../src/index.js";
import { bistroAgent } from "./support/bistro.js";

describe("EvalHarness memory", () => {
  it("lets finished runs' conversations leave the server's memory; multi-turn runs at once still complete", async () => {
    const storage = memoryEvalStorage();
    const harness = new EvalHarness({ agent: bistroAgent(), storage: storage.server });
    const items = defineDataset(
      "many",
      Array.from({ length: 150 }, (_, n) => ({ id: `i${n}`, input: [`Hello ${n}`, `Again ${n}`] })),
    ).items;
    const person = scriptedPerson();
    let next = 0;
    const outputs: string[] = [];
    const worker = async () => {
      while (next < items.length) {
        const run = await harness.run(items[next++]!, 0, { person });
        outputs.push(`${run.status} ${run.output}`);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(outputs.sort()).toEqual(items.map((_, n) => `done You said: Again ${n}`).sort());
    // The server keeps a bounded number (the default would keep all 150, up to 1 000).
    expect(harness.server.liveConversations).toBeLessThanOrEqual(64 + 8);
    // Every run stays in the storage.
    expect(await storage.server.catalog.listByOwner("glove-evals", 200)).toHaveLength(150);
    await harness.close();
  });
});
