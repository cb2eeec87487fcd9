/** Retention's options: off unless set, refused with a ConfigurationError that says what to pass. */
import { ConfigurationError } from "glove-core";
import { describe, expect, it } from "vitest";
import { createGloveServer, memoryStorage, RetentionError } from "../../src/index.js";
import { resolveRetention } from "../../src/retention/retention-options.js";
import { authenticate, testAgent } from "../support/harness.js";

const agents = { a: testAgent({ script: [], delayMs: 0, toolSignals: [] }) };

describe("retention options", () => {
  it("turns every rule off by default and reads days per agent with a '*' fallback", () => {
    const off = resolveRetention({});
    expect([off.inactiveMs("a"), off.traceMs, off.settledWaitMs, off.branchesPerConversation]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(off).toMatchObject({ intervalMs: 60_000, batchSize: 200, timeBudgetMs: 200, quietMs: 3_600_000 });
    const perAgent = resolveRetention({ inactiveConversationDays: { support: 7, "*": 90 } });
    expect(perAgent.inactiveMs("support")).toBe(7 * 86_400_000);
    expect(perAgent.inactiveMs("other")).toBe(90 * 86_400_000);
    expect(resolveRetention({ inactiveConversationDays: { support: 7 } }).inactiveMs("other")).toBeUndefined();
  });

  it.each([
    [{ traceDays: 0 }, /retention.traceDays must be a positive number, got 0/],
    [{ settledWaitDays: -1 }, /retention.settledWaitDays must be a positive number/],
    [{ inactiveConversationDays: { a: "7" } }, /inactiveConversationDays\["a"\] must be a positive number, got "7"/],
    [{ branchesPerConversation: 1.5 }, /branchesPerConversation must be a whole number, 0 or more/],
    [{ batchSize: Number.NaN }, /batchSize must be a positive number/],
  ])("refuses %j", (retention, message) => {
    const attempt = () => resolveRetention(retention as never);
    expect(attempt).toThrow(ConfigurationError);
    expect(attempt).toThrow(message);
  });

  it("refuses retention on a storage without SQL tables, and runRetention when it is off", async () => {
    expect(() =>
      createGloveServer({ agents, authenticate, store: memoryStorage(), retention: { traceDays: 1 } }),
    ).toThrow(/retention needs a storage that supports it: sqliteStorage\(\) or postgresStorage\(\)/);
    const server = createGloveServer({ agents, authenticate, store: memoryStorage() });
    const error = await server.runRetention().catch((e: unknown) => e);
    expect(RetentionError.isInstance(error)).toBe(true);
    await expect(server.purgeOwner("")).rejects.toThrow(/purgeOwner needs the principal id/);
    await server.close();
  });
});
