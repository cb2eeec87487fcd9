/** glove-server as the bench runs it: the bench agents, one bearer user, storage chosen by the caller. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGloveServer, memoryStorage, sqliteStorage, type AgentFactory, type GloveServer } from "glove-server";
import { bearer, benchAgents, type BenchAgentOptions } from "./fixtures.js";

export interface GloveTargetOptions extends BenchAgentOptions {
  /** "memory" (default for the streaming figures: no disk in the hot path) or "sqlite" (the default storage). */
  storage?: "memory" | "sqlite";
  idleTimeoutMs?: number;
  maxLiveConversations?: number;
  /** Agents other than the bench's scripted ones. */
  agents?: Record<string, AgentFactory>;
}

export interface RunningGlove {
  url: string;
  server: GloveServer;
  close(): Promise<void>;
}

export async function startGloveTarget(options: GloveTargetOptions = {}): Promise<RunningGlove> {
  let dir: string | undefined;
  let store;
  if (options.storage === "sqlite") {
    dir = mkdtempSync(join(tmpdir(), "glove-bench-server-"));
    store = sqliteStorage({ path: join(dir, "glove.db") });
  } else {
    store = memoryStorage();
  }
  const server = createGloveServer({
    agents: options.agents ?? benchAgents(options),
    authenticate: (request) => {
      const token = bearer(request.headers.get("authorization"));
      return token ? { id: token } : null;
    },
    store,
    idleTimeoutMs: options.idleTimeoutMs ?? 3_600_000,
    maxLiveConversations: options.maxLiveConversations ?? 1_000_000,
    // No heartbeat inside a measurement.
    events: { heartbeatMs: 3_600_000 },
    // The bench's one user drives every conversation: no per-principal quotas.
    limits: {
      conversationsPerPrincipal: Infinity,
      conversationsPerMinute: Infinity,
      concurrentTurnsPerPrincipal: Infinity,
      turnsPerMinute: Infinity,
    },
  });
  // Generous request timeouts: under valgrind (peers/run-callgrind.ts) a request arrives 50× slower.
  const listening = await server.listen({ port: 0, headersTimeoutMs: 600_000, requestTimeoutMs: 600_000 });
  return {
    url: listening.url,
    server,
    async close() {
      await server.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
