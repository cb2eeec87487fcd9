import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { sqliteStorage, type ServerStorage } from "glove-server";
import { UsageError, type CliOptions } from "./parse-args.js";

/** The storage the CLI reads, and how the page names it (a PostgreSQL URL without its password). */
export async function openStorage(source: CliOptions["source"]): Promise<{ storage: ServerStorage; label: string }> {
  if (source.kind === "sqlite") {
    const path = resolve(source.path);
    // sqliteStorage would create an empty file: a wrong path must say so instead of showing nothing.
    if (!existsSync(path)) {
      throw new UsageError(`No glove-server data at ${path}. Start your app first (in the Glove repo: npm start), or give --sqlite <file>.`);
    }
    return { storage: sqliteStorage({ path }), label: source.path };
  }
  const { postgresStorage } = await import("glove-server/postgres");
  const url = new URL(source.url);
  url.password = "";
  return { storage: postgresStorage({ connectionString: source.url, schema: source.schema }), label: `${url.toString()} (schema ${source.schema})` };
}
