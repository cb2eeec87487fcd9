import { afterAll, beforeAll } from "vitest";

/**
 * A server started once for a test file (beforeAll) and stopped after it (afterAll). Call at a
 * file's top level; the returned getter gives the running server inside the file's tests.
 */
export function fileServer<T extends { stop(): Promise<void> }>(what: string, start: () => Promise<T>): () => T {
  let server: T | undefined;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error(`${what} is not running: start it with fileServer() at a test file's top level`);
    return server;
  };
}
