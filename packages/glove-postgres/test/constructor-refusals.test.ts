/**
 * Every refusal of PostgresStore's constructor (and of `open`, which also brings the schema up to
 * date) has decision 0011's shape: the store and session, what is wrong, what to do next,
 * "Nothing was changed." — and nothing was: options are refused before a pool exists, a schema
 * that cannot be used keeps its rows and version.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresStore, PostgresStoreError, SCHEMA_VERSION, type PostgresStoreOptions } from "../src/index.js";
import { PG_URL, uniqueSchema } from "./pg-env.js";
import { expectRefusal, INVALID_SESSION_IDS, rejectionOf, thrownBy } from "../../../test-support/store-refusals.js";

const fence = { table: "fences", keyColumn: "conversation_id", key: "k", writer: 1, refuse: () => new Error("no") };

describe("PostgresStore constructor refusals", () => {
  for (const [label, id, shown] of INVALID_SESSION_IDS) {
    it(`refuses a session id ${label}`, () => {
      const error = thrownBy(() => new PostgresStore({ connectionString: PG_URL, sessionId: id as string }));
      expect(error).toBeInstanceOf(PostgresStoreError);
      expectRefusal(error, `PostgresStore session "${shown}": sessionId must be `, "GLOVE_STORE_INVALID");
    });
  }

  const configurations: Array<[string, Partial<PostgresStoreOptions>]> = [
    ["no pool and no connectionString", {}],
    ["a connectionString that is not a string", { connectionString: 5432 as unknown as string }],
    ["a connectionString that is not a valid URL", { connectionString: "postgres://user:p@ss@:bad:port/db" }],
    ["a URL of another database", { connectionString: "mysql://root@127.0.0.1/test" }],
    ["a connectionString that is neither a URL nor settings", { connectionString: "just some words" }],
    ["a schema name that is not a plain identifier", { connectionString: PG_URL, schema: 'x"; DROP TABLE y; --' }],
    [
      "a writerFence whose table is not an identifier",
      { connectionString: PG_URL, writerFence: { ...fence, table: "x; y" } },
    ],
    [
      "a writerFence without a whole-number writer",
      { connectionString: PG_URL, writerFence: { ...fence, writer: 1.5 } },
    ],
  ];
  for (const [label, options] of configurations) {
    it(`refuses ${label}`, () => {
      const error = thrownBy(() => new PostgresStore({ sessionId: "s", ...options }));
      expectRefusal(error, 'PostgresStore session "s": ', "GLOVE_CONFIGURATION");
    });
  }
});

describe("PostgresStore.open refusals of a schema it cannot use", () => {
  let pool: pg.Pool;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: PG_URL, max: 2 });
  });
  afterAll(() => pool.end());

  /** A schema with one stored message, changed by `change` (run as an admin would), then opened. */
  async function refusalAfter(change: (schema: string) => string): Promise<{ error: unknown; schema: string }> {
    const schema = uniqueSchema("refusal");
    const store = await PostgresStore.open({ pool, schema, sessionId: "s" });
    await store.appendMessages([{ sender: "user", text: "keep me" }]);
    await pool.query(change(`"${schema}"`));
    // A pool of its own: a pool migrates a schema once, so this one checks the version afresh.
    const error = await rejectionOf(() =>
      PostgresStore.open({ connectionString: PG_URL, schema, sessionId: "customer-42" }),
    );
    return { error, schema };
  }
  async function expectKept(schema: string): Promise<void> {
    try {
      expect((await pool.query(`SELECT body FROM "${schema}".glove_messages`)).rows).toEqual([
        { body: JSON.stringify({ sender: "user", text: "keep me" }) },
      ]);
    } finally {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  }
  const begins = 'PostgresStore session "customer-42": ';

  it("a newer schema version", async () => {
    const { error, schema } = await refusalAfter(
      (s) => `UPDATE ${s}.glove_schema_version SET version = ${SCHEMA_VERSION + 1}`,
    );
    expectRefusal(error, begins, "GLOVE_STORE_SCHEMA");
    expect((await pool.query(`SELECT version FROM "${schema}".glove_schema_version`)).rows).toEqual([
      { version: SCHEMA_VERSION + 1 },
    ]);
    await expectKept(schema);
  });

  it("an unreadable version table", async () => {
    const { error, schema } = await refusalAfter((s) => `DELETE FROM ${s}.glove_schema_version`);
    expectRefusal(error, begins, "GLOVE_STORE_SCHEMA");
    await expectKept(schema);
  });

  it("Glove tables without a version table", async () => {
    const { error, schema } = await refusalAfter((s) => `DROP TABLE ${s}.glove_schema_version`);
    expectRefusal(error, begins, "GLOVE_STORE_SCHEMA");
    await expectKept(schema);
  });
});
