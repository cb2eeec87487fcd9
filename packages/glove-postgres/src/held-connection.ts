import type { PoolClient } from "pg";

/**
 * Listens for the connection's `error` while it is checked out of the pool: a server that restarts
 * while a transaction holds the connection between two statements makes pg emit `error` on the
 * client, which without a listener ends the whole process. The failure reaches the caller through
 * its next query instead, and `release()` drops the broken connection rather than pooling it.
 */
export function holdConnection(client: PoolClient): { release(): void } {
  let lost = false;
  const onError = () => (lost = true);
  client.on("error", onError);
  return {
    release() {
      client.off("error", onError);
      client.release(lost || undefined);
    },
  };
}
