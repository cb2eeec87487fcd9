import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { sqliteStorage, type ServerStorage } from "glove-server";
import { findDefaultData } from "./find-data.js";
import { UsageError, type CliOptions } from "./parse-args.js";

function defaultPath(): string {
  const { path, candidates } = findDefaultData(process.cwd());
  if (path) return path;
  if (candidates.length > 1)
    throw new UsageError(
      `Several glove-server data files here; choose one with --sqlite:\n  ${candidates.join("\n  ")}`,
    );
  throw new UsageError(
    "No glove-server data in ./.glove/glove.db (or one or two folders down). Start your app first (the Glove repository's web demo: npm start), or give --sqlite <file>.",
  );
}

/** The storage the CLI reads, and how the page names it (a PostgreSQL URL without its password). */
export async function openStorage(source: CliOptions["source"]): Promise<{ storage: ServerStorage; label: string }> {
  if (source.kind === "sqlite") {
    const given = source.path ?? defaultPath();
    const path = resolve(given);
    // sqliteStorage would create an empty file: a wrong path must say so instead of showing nothing.
    if (!existsSync(path))
      throw new UsageError(`No glove-server data at ${path}. Start your app first, or give --sqlite <file>.`);
    return { storage: sqliteStorage({ path }), label: given };
  }
  const { postgresStorage } = await import("glove-server/postgres");
  const url = new URL(source.url);
  url.password = "";
  return {
    storage: postgresStorage({ connectionString: source.url, schema: source.schema }),
    label: `${url.toString()} (schema ${source.schema})`,
  };
}
