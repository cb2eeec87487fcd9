import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

/** One HTTP request the server saw. */
export interface SeenRequest {
  method: string;
  authorization: string | undefined;
  /** The JSON-RPC method of a POST, when it carried one. */
  rpc: string | undefined;
}

/**
 * Answers a request before MCP sees it (an auth layer in front of the MCP endpoint), or
 * returns undefined to let it through.
 */
export type Guard = (
  req: http.IncomingMessage,
  body: unknown,
) => { status: number; headers?: Record<string, string>; body?: string } | undefined;

export interface SdkHttpServer {
  url: string;
  /** Every McpServer built, one per session, in order. */
  readonly servers: McpServer[];
  readonly requests: SeenRequest[];
  stop(): Promise<void>;
}

async function readBody(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return undefined;
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
}

/**
 * A real MCP server built with the SDK's McpServer, on Streamable HTTP (stateful sessions, so
 * server-initiated notifications reach the client on its GET stream), bound to 127.0.0.1.
 */
export async function startSdkHttpServer(
  build: () => McpServer,
  options: { guard?: Guard } = {},
): Promise<SdkHttpServer> {
  const servers: McpServer[] = [];
  const requests: SeenRequest[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const server = http.createServer((req, res) => {
    void (async () => {
      const body = req.method === "POST" ? await readBody(req) : undefined;
      const rpc = (body as { method?: unknown } | undefined)?.method;
      requests.push({
        method: req.method ?? "",
        authorization: req.headers.authorization,
        rpc: typeof rpc === "string" ? rpc : undefined,
      });
      const refused = options.guard?.(req, body);
      if (refused) {
        res
          .writeHead(refused.status, { "content-type": "application/json", ...refused.headers })
          .end(refused.body ?? "{}");
        return;
      }
      const sessionId = req.headers["mcp-session-id"];
      let transport = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
      if (!transport) {
        if (typeof sessionId === "string" || req.method !== "POST") {
          res.writeHead(404).end();
          return;
        }
        const mcp = build();
        servers.push(mcp);
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void sessions.set(id, created),
        });
        created.onclose = () => {
          if (created.sessionId) sessions.delete(created.sessionId);
        };
        await mcp.connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res, body);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    servers,
    requests,
    async stop() {
      await Promise.all(servers.map((s) => s.close().catch(() => undefined)));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A raw HTTP server on 127.0.0.1 for transport failure cases; `handler` decides everything. */
export async function startRawServer(
  handler: http.RequestListener,
): Promise<{ url: string; requests: string[]; stop(): Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
