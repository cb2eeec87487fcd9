import { StoreSessionError } from "glove-core";

/**
 * A PostgresStore cannot read or write its session: unknown schema version, corrupt row, missing
 * task or inbox item. The message names the session; nothing is ever deleted to recover.
 */
export class PostgresStoreError extends StoreSessionError {
  constructor(sessionId: string, detail: string, code = "GLOVE_STORE") {
    super("PostgresStore", sessionId, detail, code);
  }
}
