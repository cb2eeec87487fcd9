import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Readable } from "node:stream";
import { sseSourceOf, type SseSource } from "./sse-response.js";

/** A web-standard handler, as `server.fetch` and `relay.fetch` are. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** Where `listen` serves: port and host, loopback by default. */
export interface ListenOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default "127.0.0.1": loopback only. Pass "0.0.0.0" deliberately to serve a network. */
  host?: string;
}

/** A server `listen` started: its URL and port, and how to stop it gracefully. */
export interface Listening {
  /** e.g. "http://127.0.0.1:8787" */
  url: string;
  port: number;
  /**
   * Stops accepting connections, lets responses in progress finish for up to `graceMs`
   * (default 3000; streams whose source has ended flush their last events), then closes the rest.
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * Serves a fetch handler on node:http. The request's signal aborts when the client goes away
 * (so upstream work can stop); response bodies are written with back-pressure: the next chunk
 * is read only when the socket has room, so a stalled reader never grows server memory.
 */
export function listenNode(handler: FetchHandler, options: ListenOptions = {}): Promise<Listening> {
  const sockets = new Set<Socket>();
  let active = 0;
  let idle: (() => void) | undefined;
  const server = createServer((req, res) => {
    active++;
    res.on("close", () => {
      if (--active === 0) idle?.();
    });
    void serve(handler, req, res);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  const host = options.host ?? "127.0.0.1";
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      const { port } = server.address() as AddressInfo;
      const shownHost = host.includes(":") ? `[${host}]` : host;
      resolve({
        url: `http://${shownHost}:${port}`,
        port,
        close: async (graceMs = 3000) => {
          const closed = new Promise<void>((done) => server.close(() => done()));
          if (active > 0) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, graceMs);
              idle = () => {
                clearTimeout(timer);
                resolve();
              };
            });
          }
          for (const socket of sockets) socket.destroy();
          await closed;
        },
      });
    });
  });
}

async function serve(handler: FetchHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const controller = new AbortController();
  // "close" on the response fires when the exchange ends either way; only an unfinished one is an abort.
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  let response: Response;
  try {
    response = await handler(await toRequest(req, controller.signal));
  } catch {
    response = new Response(JSON.stringify({ error: { code: "GLOVE_INTERNAL", message: "The server failed to handle the request." } }), {
      status: 500,
      headers: { "content-type": "application/json" },
    });
  }
  await writeResponse(response, res, controller.signal);
}

/** Bodies up to this size (by Content-Length) are read in node and handed over whole: cheaper than a web stream. */
const SMALL_BODY = 64 * 1024;

async function toRequest(req: IncomingMessage, signal: AbortSignal): Promise<Request> {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const url = `http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`;
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  if (!hasBody) return new Request(url, { method, headers, signal });
  const length = Number(req.headers["content-length"]);
  if (Number.isInteger(length) && length >= 0 && length <= SMALL_BODY) {
    return new Request(url, { method, headers, signal, body: await readSmallBody(req, length) });
  }
  // Large or chunked bodies stream, so the handler's size limit cuts them off early.
  return new Request(url, {
    method,
    headers,
    signal,
    body: Readable.toWeb(req) as ReadableStream<Uint8Array>,
    duplex: "half",
  } as RequestInit);
}

function readSmallBody(req: IncomingMessage, length: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      // A client that sends more than it announced is cut off; the handler sees what was announced.
      if (size <= length) chunks.push(chunk);
    });
    req.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    req.on("error", reject);
    // The client went away before sending the whole body.
    req.on("close", () => {
      if (!req.complete) reject(new Error("the request body was cut off"));
    });
  });
}

async function writeResponse(response: Response, res: ServerResponse, signal: AbortSignal): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    if (key === "set-cookie") return;
    headers[key] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  const sse = sseSourceOf(response);
  if (sse) return writeSse(sse, res, signal);
  const reader = response.body.getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  signal.addEventListener("abort", stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await drained(res);
      if (signal.aborted) return;
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    signal.removeEventListener("abort", stop);
  }
}

/** Writes an SSE source as text, reading the next batch only once the socket has room. */
async function writeSse(source: SseSource, res: ServerResponse, signal: AbortSignal): Promise<void> {
  const stop = () => source.cancel();
  signal.addEventListener("abort", stop, { once: true });
  try {
    while (!signal.aborted) {
      const text = await source.read();
      if (text === undefined) break;
      if (!res.write(text)) await drained(res);
    }
    if (!signal.aborted) res.end();
  } catch {
    res.destroy();
  } finally {
    signal.removeEventListener("abort", stop);
    source.cancel();
  }
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}
