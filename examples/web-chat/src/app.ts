/**
 * The web-chat example: one glove-server (under /api) and the React UI (at /) on the same origin.
 * `startWebChat` is what `npm start` runs and what the tests drive.
 */
import { randomBytes } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  createGloveServer,
  listenNode,
  type AgentFactory,
  type GloveServer,
  type GloveServerEventOptions,
} from "glove-server";
import { bistroAgent, modelSource, type ModelSource } from "./agent.js";
import { cookieUser, demoAuthenticate, mintCookie } from "./auth.js";
import { staticUi } from "./static-ui.js";
import type { Booking } from "./tools.js";

// What a server that serves this page beside others (examples/interop) reuses.
export { staticUi, type StaticUi } from "./static-ui.js";
export { cookieUser, demoAuthenticate, mintCookie } from "./auth.js";

/** Where glove-server's routes are mounted; the page is at "/". */
export const API_BASE = "/api";

const PACKAGE_DIR = dirname(dirname(fileURLToPath(import.meta.url)));

/** examples/web-chat/.glove: the embedded SQLite file (git-ignored). */
export const DEFAULT_DATA_DIR = join(PACKAGE_DIR, ".glove");

/** examples/web-chat/ui/dist: what `vite build` of the UI writes (git-ignored). */
export const DEFAULT_UI_DIR = join(PACKAGE_DIR, "ui", "dist");

export interface WebChatOptions {
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /** Default "127.0.0.1" (loopback only). */
  host?: string;
  /** Folder of the SQLite file. Default examples/web-chat/.glove. */
  dataDir?: string;
  /** Bearer token accepted for curl. Default $WEB_CHAT_TOKEN, else a random one. */
  token?: string;
  /** Model selection reads this. Default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Pause between the offline model's streamed words. Default 40 ms. */
  offlineDelayMs?: number;
  /** Unexpected errors. Default console.error. */
  log?: (message: string, error?: unknown) => void;
  /** The built UI served at "/". Default examples/web-chat/ui/dist. */
  uiDir?: string;
  /** Replaces the bistro agent (tests use scripted scenarios); it still sees the app's bookings. */
  agent?: (bookings: Map<string, Booking>) => AgentFactory;
  /** glove-server's event options (heartbeat, replay window…). */
  events?: GloveServerEventOptions;
}

export interface WebChat {
  /** e.g. http://127.0.0.1:8787 (the page); the API is under `${url}/api`. */
  url: string;
  port: number;
  token: string;
  /** The folder of the SQLite file. */
  dataDir: string;
  model: ModelSource;
  server: GloveServer;
  /** Bookings made by book_table since start. */
  bookings: ReadonlyMap<string, Booking>;
  close(): Promise<void>;
}

export async function startWebChat(options: WebChatOptions = {}): Promise<WebChat> {
  const env = options.env ?? process.env;
  const token = options.token ?? (env.WEB_CHAT_TOKEN?.trim() || `demo-${randomBytes(12).toString("hex")}`);
  const model = modelSource(env);
  const bookings = new Map<string, Booking>();
  const dataDir = resolve(options.dataDir ?? DEFAULT_DATA_DIR);
  const server = createGloveServer({
    agents: {
      bistro: options.agent
        ? options.agent(bookings)
        : bistroAgent({ source: model, env, offlineDelayMs: options.offlineDelayMs ?? 40, bookings }),
    },
    authenticate: demoAuthenticate(token),
    dataDir,
    basePath: API_BASE,
    ...(options.log ? { log: options.log } : {}),
    ...(options.events ? { events: options.events } : {}),
  });
  const ui = staticUi(options.uiDir ?? DEFAULT_UI_DIR);
  const listening = await listenNode(
    async (request) => {
      const { pathname } = new URL(request.url);
      if (pathname === API_BASE || pathname.startsWith(`${API_BASE}/`)) return server.fetch(request);
      if (request.method === "GET" || request.method === "HEAD") {
        const response = await ui.serve(pathname, request.method === "HEAD");
        if (response) {
          // The page hands every new browser a demo identity (see auth.ts: a demo, not a pattern).
          if ((pathname !== "/" && pathname !== "/index.html") || cookieUser(request)) return response;
          const headers = new Headers(response.headers);
          headers.append("set-cookie", mintCookie().header);
          return new Response(response.body, { status: response.status, headers });
        }
      }
      if (pathname === "/favicon.ico") return new Response(null, { status: 204 });
      return new Response("Not found. The UI is at / and the API under /api.\n", {
        status: 404,
        headers: { "content-type": "text/plain; charset=utf-8" },
      });
    },
    { port: options.port ?? 8787, host: options.host ?? "127.0.0.1" },
  );
  return {
    url: listening.url,
    port: listening.port,
    token,
    dataDir,
    model,
    server,
    bookings,
    async close() {
      // Running turns end as "interrupted" (those that only wait for a person's answer as "waiting":
      // their questions are stored, and the next start resumes them), streams close before the sockets go.
      await server.close();
      await listening.close();
    },
  };
}
