import { describe, expect, it } from "vitest";
import { statementsDuring } from "../../../../test-support/pg-statements.js";
import { postgresStorage } from "glove-server/postgres";
import { inspectorCases } from "./inspector-cases.js";
import { postgresSchemas } from "./pg-schemas.js";

const { pool, schema } = postgresSchemas("glove_inspect");

describe("storage inspection on PostgreSQL", () => {
  inspectorCases(async (traces) => postgresStorage({ pool, schema: schema(), ...(traces ? { traces } : {}) }));
});

describe("turn traces on PostgreSQL", () => {
  it("a save is two statements (upsert, prune) without a transaction around them", async () => {
    const storage = postgresStorage({ pool, schema: schema() });
    const traces = storage.inspect!.traces;
    const trace = (turnId: string, minute: number) => ({
      conversationId: "c",
      turnId,
      startedAt: new Date(Date.UTC(2026, 1, 1, 0, minute)).toISOString(),
      endedAt: null,
      status: "completed" as const,
      spans: [],
      truncated: false,
    });
    await traces.save(trace("t0", 0)); // creates the table
    const statements = await statementsDuring(() => traces.save(trace("t1", 1)));
    expect(statements.map((sql) => sql.trim().split(/\s+/)[0])).toEqual(["INSERT", "DELETE"]);
    expect((await traces.list("c", { limit: 5 })).map((t) => t.turnId)).toEqual(["t1", "t0"]);
  });
});
