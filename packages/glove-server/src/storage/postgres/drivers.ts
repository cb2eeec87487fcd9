/**
 * pg and glove-postgres, loaded when "glove-server/postgres" is imported. They are optional peers
 * of glove-server (a SQLite app needs neither); a missing one fails the import with a
 * MissingDependencyError that says what to install.
 */
import { importOptional } from "../../optional/optional-import.js";

const [pgModule, glovePostgres] = await importOptional(
  "glove-server/postgres (postgresStorage)",
  ["pg", "glove-postgres"],
  [() => import("pg"), () => import("glove-postgres")],
);

export const pg = pgModule.default;
export const { PostgresStore, readMessagePage } = glovePostgres;
