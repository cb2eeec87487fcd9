import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import { holdConnection } from "../../glove-postgres/src/held-connection.js";
import { withConnection } from "../src/storage/postgres/pool-helpers.js";
import { PG_URL } from "./scale/support/scale-env.js";

// A connection lost while held between two statements (a PostgreSQL restart, a killed backend):
// pg emits `error` on the checked-out client; without a listener that ends the process.
const pool = new pg.Pool({ connectionString: PG_URL, max: 3 });
const admin = new pg.Pool({ connectionString: PG_URL, max: 1 });
afterAll(async () => {
  await pool.end();
  await admin.end();
});

async function killBackend(client: pg.PoolClient): Promise<void> {
  const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
  await admin.query("SELECT pg_terminate_backend($1)", [rows[0]!.pid]);
  // Let the termination reach the idle client (it emits `error` then, with no query running).
  await new Promise((resolve) => setTimeout(resolve, 300));
}

describe("pooled connections lost while held", () => {
  it("glove-server's withConnection: the work fails on its next query, the process lives, the pool serves again", async () => {
    const failure = await withConnection(pool, async (client) => {
      await killBackend(client);
      return client.query("SELECT 1").then(
        () => "answered",
        (error: unknown) => error,
      );
    });
    expect(failure).toBeInstanceOf(Error);
    const { rows } = await pool.query<{ one: number }>("SELECT 1 AS one");
    expect(rows[0]!.one).toBe(1);
  });

  it("glove-postgres's holdConnection: the same for a store's transaction connection", async () => {
    const client = await pool.connect();
    const held = holdConnection(client);
    await killBackend(client);
    await expect(client.query("SELECT 1")).rejects.toBeInstanceOf(Error);
    held.release();
    const { rows } = await pool.query<{ one: number }>("SELECT 1 AS one");
    expect(rows[0]!.one).toBe(1);
  });
});
