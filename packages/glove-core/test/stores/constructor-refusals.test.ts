/**
 * Every refusal of a MemoryStore's constructor (and of createSubAgentStore, which makes one) has
 * decision 0011's shape: the store and session, what is wrong, what to do next, "Nothing was
 * changed." (the SQLite and PostgreSQL stores have the same test).
 */
import { describe, expect, it } from "vitest";
import { MemoryStore, MemoryStoreError, schemaVersionPolicy, type SubAgentStoreOptions } from "glove-core";
import { expectRefusal, INVALID_SESSION_IDS, rejectionOf, thrownBy } from "../../../../test-support/store-refusals.js";

describe("MemoryStore constructor refusals", () => {
  for (const [label, id, shown] of INVALID_SESSION_IDS) {
    it(`refuses a session id ${label}`, () => {
      const error = thrownBy(() => new MemoryStore(id as string));
      expect(error).toBeInstanceOf(MemoryStoreError);
      expectRefusal(error, `MemoryStore session "${shown}": sessionId must be `, "GLOVE_STORE_INVALID");
    });
  }

  it("refuses a sub-store namespace that makes an invalid session id", async () => {
    const error = await rejectionOf(() =>
      new MemoryStore("parent").createSubAgentStore("plan\u0000ner", { durable: true }),
    );
    expectRefusal(error, 'MemoryStore session "parent::plan\\u0000ner": sessionId must be ', "GLOVE_STORE_INVALID");
  });

  it("refuses sub-store options of the wrong shape", async () => {
    for (const options of ["yes", { durable: "yes" }, null]) {
      const error = await rejectionOf(() =>
        new MemoryStore("parent").createSubAgentStore("planner", options as unknown as SubAgentStoreOptions),
      );
      expectRefusal(error, "createSubAgentStore(namespace, options): ", "GLOVE_CONFIGURATION");
    }
  });
});

// The schema-version refusals of the persistent stores' constructors come from here.
describe("schema version refusals", () => {
  const policy = schemaVersionPolicy({
    migrations: [{ version: 1, description: "one", statements: [] }],
    packageName: "glove-demo",
    where: "demo.db",
    error: (detail, code) => new MemoryStoreError("chat-1", detail, code),
  });
  const begins = 'MemoryStore session "chat-1": ';

  it("an unreadable version table, Glove tables without one, a newer version: each says what to do", () => {
    expectRefusal(
      thrownBy(() => policy.recorded([])),
      begins,
      "GLOVE_STORE_SCHEMA",
    );
    expectRefusal(
      thrownBy(() => policy.refuseUnversioned(["glove_messages"])),
      begins,
      "GLOVE_STORE_SCHEMA",
    );
    expectRefusal(
      thrownBy(() => policy.pending(2)),
      begins,
      "GLOVE_STORE_SCHEMA",
    );
  });
});
