import pg from "pg";

/** Where the Postgres tests connect; each test file works in its own schema. */
export const PG_URL = process.env.GLOVE_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** Undefined when a server answers at PG_URL, else why not. */
export async function pgProblem(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message || error.name : String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

/** A schema name no other run uses. */
export function uniqueSchema(label: string): string {
  return `glove_test_${label}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
}
