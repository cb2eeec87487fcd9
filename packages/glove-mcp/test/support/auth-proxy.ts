import http from "node:http";
import type { AddressInfo } from "node:net";

/** Streams one request to `upstream` (same path) and its response back. */
export function forwardRequest(upstream: URL, req: http.IncomingMessage, res: http.ServerResponse): void {
  const forward = http.request(
    { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
    (upstreamRes) => {
      res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
      upstreamRes.pipe(res);
    },
  );
  forward.on("error", () => res.destroy());
  res.on("close", () => forward.destroy());
  req.pipe(forward);
}

/**
 * A loopback reverse proxy that lets through only requests bearing the current token and
 * answers 401 otherwise, the way an OAuth-protected MCP server treats an expired token.
 * The MCP traffic itself is the real server's.
 */
export async function startAuthProxy(upstream: URL, validToken: string) {
  let token = validToken;
  const server = http.createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401, { "WWW-Authenticate": 'Bearer error="invalid_token"', "Content-Type": "application/json" });
      res.end(JSON.stringify({ error: "invalid_token" }));
      req.resume();
      return;
    }
    forwardRequest(upstream, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    rotate(next: string) {
      token = next;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
