import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the fake provider received, and whether its connection has closed. */
export interface UpstreamRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
  /** True once the socket carrying this request closed (the relay hung up). */
  closed: boolean;
}

export interface FakeUpstream {
  /** `http://127.0.0.1:<port>/v1`, a baseURL for the OpenAI-compatible adapter. */
  baseURL: string;
  requests: UpstreamRequest[];
  close(): Promise<void>;
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

/** Writes a whole answer to one request (status, headers, body); the request is recorded first. */
export type Respond = (res: ServerResponse, request: UpstreamRequest) => void;

/**
 * An OpenAI-style chat completions server on 127.0.0.1. "slow" mode streams a
 * text delta every `intervalMs` and never finishes on its own; "finite" streams
 * `words` and ends with usage and [DONE]; "respond" leaves each answer to `respond`
 * (read per request, so a test may swap it between requests).
 */
export async function startFakeUpstream(
  mode:
    { kind: "slow"; intervalMs: number } | { kind: "finite"; words: string[] } | { kind: "respond"; respond: Respond },
): Promise<FakeUpstream> {
  const requests: UpstreamRequest[] = [];
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      const record: UpstreamRequest = {
        path: req.url ?? "",
        headers: req.headers,
        body: JSON.parse(Buffer.concat(parts).toString("utf8")) as Record<string, unknown>,
        closed: false,
      };
      requests.push(record);
      // Scripted answers end on their own: their response's close is enough (a socket listener per request piles up on keep-alive).
      if (mode.kind === "respond") res.on("close", () => (record.closed = true));
      else req.socket.on("close", () => (record.closed = true));
      open.add(res);
      res.on("close", () => open.delete(res));
      if (mode.kind === "respond") return mode.respond(res, record);
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (mode.kind === "finite") {
        for (const word of mode.words) res.write(chunk({ content: word }));
        res.write(chunk({}, "stop"));
        res.write(`data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 11, completion_tokens: 5 } })}\n\n`);
        res.end("data: [DONE]\n\n");
        return;
      }
      const timer = setInterval(() => res.write(chunk({ content: "tick " })), mode.intervalMs);
      res.write(chunk({ content: "tick " }));
      res.on("close", () => clearInterval(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
