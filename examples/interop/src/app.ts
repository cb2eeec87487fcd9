/**
 * The interop example: ONE glove-server (under /api, SQLite storage) and three frontends on its
 * origin — the glove-react page at /glove-react/ (native routes), the assistant-ui page at
 * /assistant-ui/ (the AG-UI route, /api/ag-ui) and the AI SDK useChat page at /use-chat/
 * (GloveChatTransport). All three talk to the useChat example's assistant agent, which the three
 * can drive end to end: streamed text, a tool behind Glove's permission prompt, regenerate.
 */
import { randomBytes } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createGloveServer, listenNode, type AgentFactory, type GloveServer } from "glove-server";
import { cookieUser, demoAuthenticate, mintCookie } from "glove-example-web-chat";
import { assistantAgent, type SentEmail } from "glove-example-use-chat";
import { DEFAULT_PAGES_DIR, indexPage, mountedPages } from "./pages.js";

export { DEFAULT_PAGES_DIR, PAGES, pageBase, type PageSource } from "./pages.js";

/** Where glove-server's routes are mounted; every page calls `/api`. */
export const API_BASE = "/api";

/** examples/interop/.glove: the SQLite file (git-ignored). */
export const DEFAULT_DATA_DIR = join(dirname(dirname(fileURLToPath(import.meta.url))), ".glove");

export interface InteropOptions {
  /** Default 8790; 0 picks a free port. */
  port?: number;
  /** Folder of the SQLite file. Default examples/interop/.glove. */
  dataDir?: string;
  /** The three builds (`<pagesDir>/<mount>`). Default examples/interop/dist/pages. */
  pagesDir?: string;
  /** Bearer token accepted for curl. Default a random one. */
  token?: string;
  /** Replaces the assistant agent (tests script their own); it still sees the outbox. */
  agent?: (outbox: SentEmail[]) => AgentFactory;
}

export interface Interop {
  /** e.g. http://127.0.0.1:8790; the pages are at `${url}/<mount>/`, the API under `${url}/api`. */
  url: string;
  port: number;
  token: string;
  server: GloveServer;
  /** What send_email "sent" since start, whichever page allowed it. */
  outbox: readonly SentEmail[];
  close(): Promise<void>;
}

export async function startInterop(options: InteropOptions = {}): Promise<Interop> {
  const outbox: SentEmail[] = [];
  const token = options.token ?? `demo-${randomBytes(12).toString("hex")}`;
  const server = createGloveServer({
    agents: { assistant: options.agent ? options.agent(outbox) : assistantAgent({ outbox }) },
    // DEMO (see web-chat's auth.ts): any page's index hands a browser a cookie, so the three
    // pages of one browser are one user and see each other's conversations.
    authenticate: demoAuthenticate(token),
    dataDir: resolve(options.dataDir ?? DEFAULT_DATA_DIR),
    basePath: API_BASE,
  });
  const pages = mountedPages(options.pagesDir ?? DEFAULT_PAGES_DIR);
  const listening = await listenNode(
    async (request) => {
      const { pathname } = new URL(request.url);
      if (pathname === API_BASE || pathname.startsWith(`${API_BASE}/`)) return server.fetch(request);
      if (request.method !== "GET" && request.method !== "HEAD") return notFound();
      if (pathname === "/") return indexPage();
      const response = await pages.serve(pathname, request.method === "HEAD");
      if (!response) return notFound();
      if (!response.headers.get("content-type")?.startsWith("text/html") || cookieUser(request)) return response;
      const headers = new Headers(response.headers);
      headers.append("set-cookie", mintCookie().header);
      return new Response(response.body, { status: response.status, headers });
    },
    { port: options.port ?? 8790 },
  );
  return {
    url: listening.url,
    port: listening.port,
    token,
    server,
    outbox,
    async close() {
      await server.close();
      await listening.close();
    },
  };
}

function notFound(): Response {
  return new Response(
    "Not found. The pages are at /glove-react/, /assistant-ui/ and /use-chat/ (build them with `npm run build:ui`), the API under /api.\n",
    {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8" },
    },
  );
}
