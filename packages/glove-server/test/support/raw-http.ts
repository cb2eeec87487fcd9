/**
 * HTTP over a bare socket, for what fetch cannot send (malformed Host, absolute-form targets,
 * TRACE, several requests on one connection, bodies trickled or never sent) and for watching
 * when the server closes the connection.
 */
import net from "node:net";
import { eventually } from "./polling.js";

export interface RawResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
}

/** A connection to 127.0.0.1:`port` that records what arrives and whether the server closed it. */
export class RawConnection {
  readonly socket: net.Socket;
  received = Buffer.alloc(0);
  closed = false;
  readonly #ready: Promise<void>;

  constructor(port: number) {
    this.socket = net.connect(port, "127.0.0.1");
    this.#ready = new Promise((resolve) => this.socket.once("connect", () => resolve()));
    this.socket.on("data", (chunk: Buffer) => (this.received = Buffer.concat([this.received, chunk])));
    this.socket.on("error", () => undefined);
    this.socket.on("close", () => (this.closed = true));
  }

  ready(): Promise<void> {
    return this.#ready;
  }

  async send(data: string | Buffer): Promise<void> {
    await this.#ready;
    if (this.closed || this.socket.destroyed) return;
    await new Promise<void>((resolve) => this.socket.write(data, () => resolve()));
  }

  /** The complete responses received so far. */
  get responses(): RawResponse[] {
    return parseResponses(this.received, this.closed).responses;
  }

  /** Polls (every 20 ms, up to `timeoutMs`) until `predicate` holds; returns whether it did. */
  until(predicate: (connection: RawConnection) => boolean, timeoutMs = 20_000): Promise<boolean> {
    return eventually(() => predicate(this), timeoutMs);
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** Sends `data` on a new connection and waits for `count` responses, or the connection to close. */
export async function exchange(
  port: number,
  data: string | Buffer,
  count = 1,
  timeoutMs = 20_000,
): Promise<RawResponse[]> {
  const connection = new RawConnection(port);
  try {
    await connection.send(data);
    await connection.until((c) => c.closed || c.responses.length >= count, timeoutMs);
    return connection.responses;
  } finally {
    connection.destroy();
  }
}

/** A request as text; `Content-Length` is added for a body unless a framing header is given. */
export function request(method: string, target: string, headers: Record<string, string> = {}, body = ""): string {
  const lines = [
    `${method} ${target} HTTP/1.1`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  const framed = Object.keys(headers).some((name) => /^(content-length|transfer-encoding)$/i.test(name));
  if (body && !framed) lines.push(`content-length: ${Buffer.byteLength(body)}`);
  return `${lines.join("\r\n")}\r\n\r\n${body}`;
}

/**
 * Splits the bytes into complete HTTP/1.1 responses: framed by Content-Length, chunked, or (when
 * neither) running to the end of the connection, so complete only once it `closed`.
 */
export function parseResponses(data: Buffer, closed: boolean): { responses: RawResponse[]; rest: Buffer } {
  const responses: RawResponse[] = [];
  let at = 0;
  for (;;) {
    const end = data.indexOf("\r\n\r\n", at);
    if (end === -1) break;
    const [statusLine, ...lines] = data.subarray(at, end).toString("latin1").split("\r\n");
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? "")?.[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(":");
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    const bodiless = status < 200 || status === 204 || status === 304;
    const body = bodiless ? { text: "", next: end + 4 } : readBody(data, end + 4, headers, closed);
    if (!body) break;
    responses.push({ status, headers, body: body.text });
    at = body.next;
  }
  return { responses, rest: data.subarray(at) };
}

function readBody(
  data: Buffer,
  start: number,
  headers: Record<string, string>,
  closed: boolean,
): { text: string; next: number } | undefined {
  if (headers["content-length"] !== undefined) {
    const next = start + Number(headers["content-length"]);
    return next <= data.length ? { text: data.subarray(start, next).toString("utf8"), next } : undefined;
  }
  if (/chunked/i.test(headers["transfer-encoding"] ?? "")) {
    const parts: Buffer[] = [];
    let at = start;
    for (;;) {
      const lineEnd = data.indexOf("\r\n", at);
      if (lineEnd === -1) return undefined;
      const size = parseInt(data.subarray(at, lineEnd).toString("latin1"), 16);
      if (size === 0)
        return data.length >= lineEnd + 4
          ? { text: Buffer.concat(parts).toString("utf8"), next: lineEnd + 4 }
          : undefined;
      if (data.length < lineEnd + 2 + size + 2) return undefined;
      parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
  }
  return closed ? { text: data.subarray(start).toString("utf8"), next: data.length } : undefined;
}
