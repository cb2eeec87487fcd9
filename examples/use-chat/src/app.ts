/**
 * The useChat example: one glove-server (under /api) and the AI SDK page (at /) on one origin.
 * `startUseChat` is what `npm start -w glove-example-use-chat` runs and what the tests drive.
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createGloveServer, listenNode, memoryStorage, type AgentFactory, type GloveServer } from "glove-server";
import { assistantAgent } from "./agent.js";
import { pageFile } from "./page-files.js";
import type { SentEmail } from "./tools.js";

// The example agent, for servers that serve this page beside others (examples/interop).
export { assistantAgent, type AssistantOptions } from "./agent.js";
export type { SentEmail } from "./tools.js";

/** Where glove-server's routes are mounted: the page's transport is `new GloveChatTransport({ server: "/api" })`. */
export const API_BASE = "/api";

const PACKAGE_DIR = dirname(dirname(fileURLToPath(import.meta.url)));

export interface UseChatOptions {
  /** Default 8788; 0 picks a free port. */
  port?: number;
  /** Folder of the SQLite file (conversations survive restarts). Default examples/use-chat/.glove; `null`: in memory. */
  dataDir?: string | null;
  /** The built page. Default examples/use-chat/ui/dist. */
  uiDir?: string;
  /** Replaces the example agent (tests script their own); it still sees the outbox. */
  agent?: (outbox: SentEmail[]) => AgentFactory;
}

export interface UseChat {
  url: string;
  port: number;
  server: GloveServer;
  /** What send_email "sent" since start. */
  outbox: readonly SentEmail[];
  close(): Promise<void>;
}

export async function startUseChat(options: UseChatOptions = {}): Promise<UseChat> {
  const outbox: SentEmail[] = [];
  const dataDir = options.dataDir === undefined ? join(PACKAGE_DIR, ".glove") : options.dataDir;
  const server = createGloveServer({
    agents: { assistant: options.agent ? options.agent(outbox) : assistantAgent({ outbox }) },
    // DEMO: everyone who reaches this loopback server is the same user. A real app returns the
    // principal of its own session (cookie, JWT) and null for everyone else.
    authenticate: () => ({ id: "demo" }),
    ...(dataDir === null ? { store: memoryStorage() } : { dataDir: resolve(dataDir) }),
    basePath: API_BASE,
  });
  const uiDir = options.uiDir ?? join(PACKAGE_DIR, "ui", "dist");
  const listening = await listenNode(
    async (request) => {
      const { pathname } = new URL(request.url);
      if (pathname === API_BASE || pathname.startsWith(`${API_BASE}/`)) return server.fetch(request);
      const file = request.method === "GET" ? await pageFile(uiDir, pathname) : undefined;
      return (
        file ??
        new Response("Not found. The page is at / (build it with `npm run build:ui`), the API under /api.\n", {
          status: 404,
        })
      );
    },
    { port: options.port ?? 8788 },
  );
  return {
    url: listening.url,
    port: listening.port,
    server,
    outbox,
    async close() {
      await server.close();
      await listening.close();
    },
  };
}
