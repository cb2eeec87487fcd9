import pg from "pg";
import type { ServerStorage } from "glove-server";
import { postgresStorage, type PostgresCatalog } from "glove-server/postgres";
import { BIG_ID, seedRecord, seedStores } from "./seed.js";

const COLUMNS = [
  "id",
  "owner",
  "agent",
  "title",
  "created_at",
  "updated_at",
  "running_turn_id",
  "last_turn_status",
  "turns",
  "tokens_in",
  "tokens_out",
];

/** postgresStorage in a fresh schema with the bench's data; catalog rows inserted 5 000 at a time. */
export async function postgresData(
  url: string,
  conversations: number,
  messages: number,
  traces: number,
): Promise<{ storage: ServerStorage; close(): Promise<void> }> {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const schema = `glove_bench_studio_${process.pid}_${conversations}`;
  await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  const storage = postgresStorage({ pool, schema });
  await (storage.catalog as PostgresCatalog).ready();
  const records = Array.from({ length: conversations + 1 }, (_, i) =>
    i === conversations ? { ...seedRecord(i), id: BIG_ID, title: "The long conversation" } : seedRecord(i),
  );
  for (let from = 0; from < records.length; from += 5000) {
    const batch = records.slice(from, from + 5000);
    const columns = [
      batch.map((r) => r.id),
      batch.map((r) => r.owner),
      batch.map((r) => r.agent),
      batch.map((r) => r.title),
      batch.map((r) => r.createdAt),
      batch.map((r) => r.updatedAt),
      batch.map((r) => r.runningTurnId),
      batch.map((r) => r.lastTurnStatus ?? null),
      batch.map((r) => r.stats!.turns),
      batch.map((r) => r.stats!.tokens_in),
      batch.map((r) => r.stats!.tokens_out),
    ];
    const types = ["text", "text", "text", "text", "text", "text", "text", "text", "bigint", "bigint", "bigint"];
    await pool.query(
      `INSERT INTO ${schema}.gloveserver_conversations (${COLUMNS.join(", ")}) SELECT * FROM unnest(${types.map((t, k) => `$${k + 1}::${t}[]`).join(", ")})`,
      columns,
    );
  }
  await seedStores(storage, conversations, messages, traces);
  await pool.query(`ANALYZE ${schema}.gloveserver_conversations`);
  return {
    storage,
    close: async () => {
      await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await pool.end();
    },
  };
}
