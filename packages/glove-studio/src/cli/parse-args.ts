import { parseArgs } from "node:util";
import { GloveError } from "glove-core";
import { DEFAULT_PORT } from "../standalone/start-studio.js";

/** Where the CLI reads from, and where it listens. */
export interface CliOptions {
  /** A SQLite path of undefined: none given (the CLI looks for the default). */
  source: { kind: "sqlite"; path: string | undefined } | { kind: "postgres"; url: string; schema: string };
  port: number;
  help: boolean;
}

/** Bad command-line arguments: the CLI prints the message and the usage, and exits with 2. */
export class UsageError extends GloveError {
  constructor(message: string) {
    super(message, { code: "GLOVE_STUDIO_USAGE" });
    this.name = "UsageError";
  }
  static override isInstance(error: unknown): error is UsageError {
    return GloveError.isInstance(error) && error.code === "GLOVE_STUDIO_USAGE";
  }
}

export const USAGE = `Usage: glove-studio [--sqlite <file> | --postgres <url> [--schema <name>]] [--port <n>]

Opens Glove Studio on http://127.0.0.1:<port>/ over a glove-server app's conversations.
  --sqlite <file>    the app's SQLite file (default ./.glove/glove.db, glove-server's default,
                     or the only .glove/glove.db one or two folders down)
  --postgres <url>   a PostgreSQL URL, e.g. postgres://user@127.0.0.1:5432/app
  --schema <name>    the PostgreSQL schema of Glove's tables (default glove)
  --port <n>         default ${DEFAULT_PORT}; 0 picks a free port`;

export function parseCli(argv: string[]): CliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        sqlite: { type: "string" },
        postgres: { type: "string" },
        schema: { type: "string" },
        port: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.sqlite !== undefined && values.postgres !== undefined)
    throw new UsageError("Give --sqlite or --postgres, not both.");
  if (values.schema !== undefined && values.postgres === undefined)
    throw new UsageError("--schema goes with --postgres.");
  let port = DEFAULT_PORT;
  if (values.port !== undefined) {
    port = Number(values.port);
    if (!/^\d{1,5}$/.test(values.port) || port > 65535)
      throw new UsageError(`--port must be a port number (0-65535), got ${JSON.stringify(values.port)}.`);
  }
  if (values.postgres !== undefined) {
    if (!/^postgres(ql)?:\/\//.test(values.postgres))
      throw new UsageError("--postgres needs a URL starting with postgres://.");
    return {
      source: { kind: "postgres", url: values.postgres, schema: values.schema ?? "glove" },
      port,
      help: values.help ?? false,
    };
  }
  return { source: { kind: "sqlite", path: values.sqlite }, port, help: values.help ?? false };
}
