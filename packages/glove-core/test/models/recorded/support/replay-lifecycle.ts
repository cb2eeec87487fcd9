import { afterEach } from "vitest";
import { startReplayServer, type ReplayServer } from "./replay-server.js";
import type { ReplayStep } from "./replay-script.js";

/**
 * `startReplayServer` for the tests of a file (or describe block): every server started in a
 * test is closed after it. Call at the top level of the file or block.
 */
export function replayServers(): (steps: ReplayStep[]) => Promise<ReplayServer> {
  const open: ReplayServer[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((server) => server.close()));
  });
  return async (steps) => {
    const server = await startReplayServer(steps);
    open.push(server);
    return server;
  };
}
