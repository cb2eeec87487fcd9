import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";
import { badRequest, HttpError } from "../errors.js";
import { resolveConnectionLimits, type ConnectionLimits } from "./connection-limits.js";
import { ConnectionAbort } from "./connection-abort.js";
import { SERVED_METHODS, toRequest } from "./node-request.js";
import { writeResponse } from "./node-response.js";
import { errorResponse, json } from "./responses.js";
import { SECURITY_HEADERS, withSecurityHeaders } from "./security-headers.js";

/** A web-standard handler, as `server.fetch` and `relay.fetch` are. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** Where `listen` serves (port and host, loopback by default), and how long connections may take. */
export interface ListenOptions extends ConnectionLimits {
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
 * (so upstream work can stop); response bodies are written with back-pressure. Connections are
 * bounded in number and in time (ConnectionLimits); requests a web Request cannot represent are
 * answered here with a 4xx, and so is what node's parser refuses, as JSON errors.
 */
export async function listenNode(handler: FetchHandler, options: ListenOptions = {}): Promise<Listening> {
  const limits = resolveConnectionLimits(options);
  const sockets = new Set<Socket>();
  /** The responses in progress on each socket, so a parser error never writes into one already under way. */
  const inProgress = new WeakMap<Duplex, Set<ServerResponse>>();
  let active = 0;
  let idle: (() => void) | undefined;
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Checked in toRequest instead, to answer with a JSON error like every other refusal.
      requireHostHeader: false,
      // Node checks the two timeouts above on this interval; the default (30 s) would let a 300 ms timeout run 30 s.
      connectionsCheckingInterval: Math.min(5000, Math.max(50, Math.floor(limits.headersTimeoutMs / 3))),
    },
    (req, res) => {
      // A request after an answer that closed the connection (see closeGracefully), read while
      // the rest of a body was being discarded: it can never be answered, so it is not served.
      if (req.socket.writableEnded) {
        req.socket.destroy();
        return;
      }
      active++;
      const responses = inProgress.get(req.socket) ?? new Set<ServerResponse>();
      inProgress.set(req.socket, responses.add(res));
      res.on("close", () => {
        responses.delete(res);
        if (--active === 0) idle?.();
      });
      void serve(handler, req, res);
    },
  );
  // Node closes a socket with no traffic for this long (no listener on "timeout" keeps it open).
  server.timeout = limits.socketIdleTimeoutMs;
  server.maxConnections = limits.maxConnections;
  server.on("clientError", (error: Error & { code?: string }, socket: Duplex) =>
    answerClientError(error, socket, inProgress.get(socket)),
  );
  // Node hands CONNECT (a tunnel request) to this event instead of the handler; this is no proxy.
  server.on("connect", (_req: IncomingMessage, socket: Duplex) =>
    writeRawError(socket, 405, "GLOVE_METHOD_NOT_ALLOWED", `CONNECT is not served here; use ${SERVED_METHODS}.`, {
      allow: SERVED_METHODS,
    }),
  );
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
  const connection = new ConnectionAbort();
  // "close" on the response fires when the exchange ends either way; only an unfinished one is an abort.
  res.on("close", () => {
    if (!res.writableFinished) connection.abort();
  });
  await writeResponse(await respond(handler, req, connection), req, res, connection);
}

async function respond(handler: FetchHandler, req: IncomingMessage, signal: ConnectionAbort): Promise<Response> {
  let request: Request;
  try {
    request = await toRequest(req, signal);
  } catch (error) {
    // Whatever node accepted but a Request cannot carry is the client's input, never a 500.
    const refusal = HttpError.isInstance(error)
      ? error
      : badRequest("The request could not be read. Check its method, target and headers.");
    return withSecurityHeaders(errorResponse(refusal, () => undefined));
  }
  try {
    return await handler(request);
  } catch {
    return withSecurityHeaders(
      json(500, { error: { code: "GLOVE_INTERNAL", message: "The server failed to handle the request." } }),
    );
  }
}

/** What node's parser refuses, by its error code: status, code and what to do about it. */
function describeClientError(code: string | undefined): [number, string, string] {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return [
        431,
        "GLOVE_HEADERS_TOO_LARGE",
        "The request headers are too large. Send fewer or smaller headers (cookies?).",
      ];
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return [408, "GLOVE_REQUEST_TIMEOUT", "The request took too long to arrive. Send it again, whole."];
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return [413, "GLOVE_TOO_LARGE", "The chunk extensions are too large. Send the body without them."];
    default:
      return [
        400,
        "GLOVE_BAD_REQUEST",
        `The request is not valid HTTP/1.1${code ? ` (${code})` : ""}. Check the request line and headers.`,
      ];
  }
}

/**
 * Node's parser refused the input, or a request timed out: answer with a JSON error (node's own
 * answer has no body) and close. Nothing is written into a response already under way: with one
 * started, or several queued (pipelining), the connection just closes.
 */
function answerClientError(
  error: Error & { code?: string },
  socket: Duplex,
  responses: ReadonlySet<ServerResponse> | undefined,
): void {
  const [only, ...more] = responses ?? [];
  if (error.code === "ECONNRESET" || !socket.writable || more.length > 0 || only?.headersSent) {
    socket.destroy();
    return;
  }
  writeRawError(socket, ...describeClientError(error.code));
}

/** A JSON error written straight to the socket (there is no response object), then the connection closes. */
function writeRawError(
  socket: Duplex,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify({ error: { code, message } });
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    "content-type: application/json; charset=utf-8",
    `content-length: ${Buffer.byteLength(body)}`,
    "cache-control: no-store",
    "connection: close",
    ...Object.entries({ ...SECURITY_HEADERS, ...headers }).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${head.join("\r\n")}\r\n\r\n${body}`, () => socket.destroy());
}
