/** The storages the studio is tested on: a SQLite file and a PostgreSQL schema, each opened twice (app and studio). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { sqliteStorage, type ServerStorage } from "glove-server";
import { postgresStorage } from "glove-server/postgres";
import { testSqliteDriver } from "../../../../test-support/sqlite-driver.js";

export const PG_URL = process.env.GLOVE_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export interface StorageKind {
  name: "SQLite" | "PostgreSQL";
  /** A fresh place: `open()` gives a new handle on it each call (the app's, the studio's). */
  create(): Promise<{ open(): ServerStorage; cliArgs: string[]; dispose(): Promise<void> }>;
}

export const sqliteKind: StorageKind = {
  name: "SQLite",
  async create() {
    const dir = mkdtempSync(join(tmpdir(), "glove-studio-"));
    const path = join(dir, "glove.db");
    return {
      open: () => sqliteStorage({ path, driver: testSqliteDriver }),
      cliArgs: ["--sqlite", path],
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
};

export const postgresKind: StorageKind = {
  name: "PostgreSQL",
  async create() {
    const pool = new pg.Pool({ connectionString: PG_URL, max: 10 });
    const schema = `glove_studio_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    return {
      open: () => postgresStorage({ pool, schema }),
      // Trust authentication ignores the password: it is there to check the CLI never prints it.
      cliArgs: ["--postgres", withPassword(PG_URL, "s3cret-pw"), "--schema", schema],
      dispose: async () => {
        await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await pool.end();
      },
    };
  },
};

function withPassword(url: string, password: string): string {
  const parsed = new URL(url);
  parsed.password = password;
  return parsed.toString();
}
