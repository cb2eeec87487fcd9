import { afterAll, beforeAll } from "vitest";
import { startProtectedMcp, type ProtectedMcp } from "./oauth-server.js";
import { startEverything, type RunningServer } from "./servers.js";

export interface ProtectedFronts {
  /** server-everything's own URL, without OAuth in front (valid once the file's beforeAll ran). */
  readonly upstreamUrl: string;
  /** Starts one more OAuth front on the shared server-everything; it stops with the file. */
  start(options: Omit<Parameters<typeof startProtectedMcp>[0], "upstream">): Promise<ProtectedMcp>;
}

/**
 * One server-everything per test file, and as many OAuth-protected fronts on it as the tests
 * start: registers the file's beforeAll/afterAll, so call it at the top level of a test file.
 */
export function protectedFronts(): ProtectedFronts {
  let everything: RunningServer | undefined;
  const fronts: ProtectedMcp[] = [];
  beforeAll(async () => {
    everything = await startEverything("streamableHttp");
  });
  afterAll(async () => {
    await Promise.all(fronts.map((f) => f.stop()));
    await everything?.stop();
  });
  const upstream = (): RunningServer => {
    if (!everything) throw new Error("server-everything is not running: use protectedFronts() at a test file's top level");
    return everything;
  };
  return {
    get upstreamUrl() {
      return upstream().url;
    },
    async start(options) {
      const front = await startProtectedMcp({ upstream: new URL(upstream().url), ...options });
      fronts.push(front);
      return front;
    },
  };
}
