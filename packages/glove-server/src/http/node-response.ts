import type { IncomingMessage, ServerResponse } from "node:http";
import type { ConnectionAbort } from "./connection-abort.js";
import { closeGracefully } from "./lingering-close.js";
import { jsonTextOf } from "./responses.js";
import { sseSourceOf, type SseSource } from "./sse-response.js";

/**
 * Writes a web Response to node, with back-pressure: the next chunk is read only when the socket
 * has room, so a stalled reader never grows server memory.
 */
export async function writeResponse(
  response: Response,
  req: IncomingMessage,
  res: ServerResponse,
  connection: ConnectionAbort,
): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    if (key === "set-cookie") return;
    headers[key] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  // Answered before the body was read (a 413 on Content-Length, a 401): the rest of the body is
  // still on its way. Kept alive, the connection would parse the next request out of those bytes
  // (or wait for bytes that never come), so it closes once this answer is out — gracefully, so
  // the client's unread body does not make the close a reset that discards this answer.
  if (!req.complete) {
    headers.connection = "close";
    closeGracefully(req);
  }
  const text = jsonTextOf(response);
  if (text !== undefined) {
    // A JSON answer is complete: head and body leave in one socket write, with its length.
    headers["content-length"] = String(Buffer.byteLength(text));
    res.writeHead(response.status, headers);
    res.end(text);
    return;
  }
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  // Only a streamed body needs the exchange's signal (made here unless the handler read it).
  const signal = connection.signal;
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
