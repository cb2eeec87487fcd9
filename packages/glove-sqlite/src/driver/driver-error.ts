import { GloveError } from "glove-core";
import type { SqliteDriverName } from "./types.js";

/**
 * No SQLite driver to open a database with: Node.js before 22.13 has no node:sqlite, and
 * better-sqlite3 (an optional peer) is not installed; or the driver asked for is not there. Code
 * `GLOVE_MISSING_DEPENDENCY`, as glove-server's MissingDependencyError; the message says what to do.
 */
export class SqliteDriverError extends GloveError {
  /** The driver that was missing. */
  readonly driver: SqliteDriverName;
  /** The command that installs the Node 20 driver. */
  readonly installCommand = "npm install better-sqlite3";

  constructor(message: string, driver: SqliteDriverName) {
    super(message, { code: "GLOVE_MISSING_DEPENDENCY" });
    this.name = "SqliteDriverError";
    this.driver = driver;
  }

  static override isInstance(error: unknown): error is SqliteDriverError {
    return GloveError.isInstance(error) && (error as { name?: unknown }).name === "SqliteDriverError";
  }
}
