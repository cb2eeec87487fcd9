import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { SubscriberEventDataMap, SubscriberEventType } from "glove-core";

/** What the fake provider received. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  raw: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export type Handler = (req: Received, res: ServerResponse, index: number) => void | Promise<void>;

export interface FakeServer {
  url: string;
  received: Received[];
  /** Handlers played in order; the last one repeats. */
  handlers: Handler[];
  /** Connections closed by the client before the response ended. */
  clientAborts: number;
  close(): Promise<void>;
}

/** A provider on 127.0.0.1 that records every request and answers with scripted handlers. */
export async function startFakeServer(...handlers: Handler[]): Promise<FakeServer> {
  const state: FakeServer = {
    url: "",
    received: [],
    handlers,
    clientAborts: 0,
    close: async () => {},
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown = undefined;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const index = state.received.length;
      state.received.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, raw, body });
      res.on("close", () => {
        if (!res.writableFinished) state.clientAborts++;
      });
      const handler = state.handlers[Math.min(index, state.handlers.length - 1)];
      if (!handler) {
        res.writeHead(500).end("no handler");
        return;
      }
      Promise.resolve(handler(state.received[index]!, res, index)).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500);
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

const NAMED = Symbol("named SSE event");
interface NamedEvent {
  [NAMED]: true;
  event: string;
  data: unknown;
}

/** An SSE event with an `event:` line (Anthropic style). */
export function named(event: string, data: unknown): NamedEvent {
  return { [NAMED]: true, event, data };
}

/** One SSE frame: strings are written raw, named events get an `event:` line, anything else is `data: <JSON>`. */
export function frame(e: unknown): string {
  if (typeof e === "string") return e;
  if (e && typeof e === "object" && NAMED in e) {
    const n = e as NamedEvent;
    return `event: ${n.event}\ndata: ${JSON.stringify(n.data)}\n\n`;
  }
  return `data: ${JSON.stringify(e)}\n\n`;
}

/** Writes `events` as an SSE body and ends it (with `data: [DONE]` when asked). */
export function sse(events: unknown[], opts: { done?: boolean; end?: boolean } = {}): Handler {
  return (_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (const e of events) res.write(frame(e));
    if (opts.done) res.write("data: [DONE]\n\n");
    if (opts.end !== false) res.end();
  };
}

/** Answers with a status, JSON body and headers. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  };
}

/** Writes part of a stream, then destroys the socket. */
export function dropAfter(events: string[]): Handler {
  return (_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    for (const e of events) res.write(e);
    setTimeout(() => res.socket?.destroy(), 20);
  };
}

/** Never answers (until the client gives up). */
export const hang: Handler = (_req, res) => {
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.write(": keep-alive\n\n");
};

export type RecordedEvent = {
  [T in SubscriberEventType]: { type: T; data: SubscriberEventDataMap[T] };
}[SubscriberEventType];

/** A notify function that records every event. */
export function recorder(): {
  events: RecordedEvent[];
  notify: <T extends SubscriberEventType>(t: T, d: SubscriberEventDataMap[T]) => Promise<void>;
} {
  const events: RecordedEvent[] = [];
  return {
    events,
    notify: async (type, data) => {
      events.push({ type, data } as RecordedEvent);
    },
  };
}
