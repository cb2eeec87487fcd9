import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { PostgresCatalog } from "glove-server/postgres";
import { expectRefusal, thrownBy } from "../../../test-support/store-refusals.js";

// A pool that never connects: the catalog refuses a schema name before any query.
const pool = new pg.Pool({ connectionString: "postgres://nobody@127.0.0.1:1/none", max: 1 });
afterAll(() => pool.end());

describe("PostgresCatalog refuses a schema name it cannot quote", () => {
  for (const schema of ['x"; DROP TABLE y; --', "Glove", "1glove", "", "a".repeat(64), undefined]) {
    it(`${JSON.stringify(schema)}: a ConfigurationError saying what to pass, never a TypeError`, () => {
      const error = thrownBy(() => new PostgresCatalog(pool, schema as string));
      expectRefusal(error, "PostgresCatalog: invalid PostgreSQL schema name ", "GLOVE_CONFIGURATION");
    });
  }

  it("takes a valid one", () => {
    expect(() => new PostgresCatalog(pool, "glove_ok_1")).not.toThrow();
  });
});
