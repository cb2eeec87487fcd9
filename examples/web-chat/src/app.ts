/**
 * The web-chat example: one glove-server (under /api) and one page (at /) on the same origin.
 * `startWebChat` is what `npm start` runs and what the test drives.
 */
import { randomBytes } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createGloveServer, listenNode, type GloveServer } from "glove-server";
import { bistroAgent, modelSource, type ModelSource } from "./agent.js";
import { cookieUser, demoAuthenticate, mintCookie } from "./auth.js";
import { chatPage } from "./page.js";
import type { Booking } from "./tools.js";

/** Where glove-server's routes are mounted; the page is at "/". */
export const API_BASE = "/api";

/** examples/web-chat/.glove: the embedded SQLite file (git-ignored). */
export const DEFAULT_DATA_DIR = join(dirname(dirname(fileURLToPath(import.meta.url))), ".glove");

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

function pageResponse(request: Request): Response {
  const nonce = randomBytes(16).toString("base64");
  const headers = new Headers({
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "content-security-policy": `default-src 'self'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
    "x-content-type-options": "nosniff",
  });
  if (!cookieUser(request)) headers.append("set-cookie", mintCookie().header);
  return new Response(request.method === "HEAD" ? null : chatPage(nonce), { status: 200, headers });
}

export async function startWebChat(options: WebChatOptions = {}): Promise<WebChat> {
  const env = options.env ?? process.env;
  const token = options.token ?? (env.WEB_CHAT_TOKEN?.trim() || `demo-${randomBytes(12).toString("hex")}`);
  const model = modelSource(env);
  const bookings = new Map<string, Booking>();
  const dataDir = resolve(options.dataDir ?? DEFAULT_DATA_DIR);
  const server = createGloveServer({
    agents: { bistro: bistroAgent({ source: model, env, offlineDelayMs: options.offlineDelayMs ?? 40, bookings }) },
    authenticate: demoAuthenticate(token),
    dataDir,
    basePath: API_BASE,
    ...(options.log ? { log: options.log } : {}),
  });
  const listening = await listenNode(
    async (request) => {
      const { pathname } = new URL(request.url);
      if (pathname === API_BASE || pathname.startsWith(`${API_BASE}/`)) return server.fetch(request);
      if (pathname === "/" && (request.method === "GET" || request.method === "HEAD")) return pageResponse(request);
      if (pathname === "/favicon.ico") return new Response(null, { status: 204 });
      return new Response("Not found. The page is at / and the API under /api.\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
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
      // Running turns end as "interrupted" and streams close before the sockets go.
      await server.close();
      await listening.close();
    },
  };
}
