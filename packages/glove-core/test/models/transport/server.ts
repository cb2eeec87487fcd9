import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Seen {
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export type Route = (req: Seen, res: ServerResponse) => void;

export interface TestServer {
  url: string;
  seen: Seen[];
  /** TCP connections opened so far (keep-alive reuse keeps this low). */
  connections: number;
  /** Responses the client walked away from before they ended. */
  clientAborts: number;
  /** The paths of those responses. */
  aborted: string[];
  close(): Promise<void>;
}

/** A server on 127.0.0.1 answering by path (`/name…` → routes[name]); `keepAliveMs` sets its idle keep-alive timeout. */
export async function startServer(routes: Record<string, Route>, keepAliveMs?: number): Promise<TestServer> {
  const state: TestServer = { url: "", seen: [], connections: 0, clientAborts: 0, aborted: [], close: async () => {} };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const seen: Seen = { path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      state.seen.push(seen);
      res.on("close", () => {
        if (res.writableFinished) return;
        state.clientAborts++;
        state.aborted.push(seen.path);
      });
      const route = routes[seen.path.slice(1).split(/[/?]/)[0]!];
      if (route) route(seen, res);
      else res.writeHead(404).end("no route");
    });
  });
  server.on("connection", () => state.connections++);
  if (keepAliveMs !== undefined) server.keepAliveTimeout = keepAliveMs;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

/** Writes `parts` one by one, `gapMs` apart, then ends. */
export function drip(res: ServerResponse, parts: Array<string | Buffer>, gapMs = 2): void {
  let i = 0;
  const next = () => {
    if (res.destroyed) return;
    if (i === parts.length) return void res.end();
    res.write(parts[i++]!);
    setTimeout(next, gapMs);
  };
  next();
}
