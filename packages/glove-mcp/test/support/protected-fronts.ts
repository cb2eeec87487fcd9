import { afterAll } from "vitest";
import { fileServer } from "./file-server.js";
import { startProtectedMcp, type ProtectedMcp } from "./oauth-server.js";
import { startEverything } from "./servers.js";

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
  const upstream = fileServer("server-everything", () => startEverything("streamableHttp"));
  const fronts: ProtectedMcp[] = [];
  // Registered after fileServer's hook, so it runs first (vitest runs after-hooks as a stack).
  afterAll(async () => {
    await Promise.all(fronts.map((f) => f.stop()));
  });
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
