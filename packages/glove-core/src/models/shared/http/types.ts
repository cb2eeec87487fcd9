/**
 * What the adapters read instead of a web `Response`, so the same code runs over `fetch`
 * (browsers, Deno, Bun, a `fetch` the user passes) and over `node:http` (Node's default, see
 * docs/decisions/0035-node-http-transport.md).
 */

/** One POST to send. */
export interface HttpRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Aborts the request and, once it answered, the body being read (its reason is what the read rejects with). */
  signal: AbortSignal;
}

/** An answer whose status and headers arrived; the body is read once, by one of the readers. */
export interface HttpResponse {
  readonly status: number;
  /** Status 200–299. */
  readonly ok: boolean;
  /** The response headers (case-insensitive names; `get` gives null when absent). */
  readonly headers: HeaderSource;
  /** The body as UTF-8 text, decoded across chunk boundaries; a failed read throws BodyReadError. */
  textChunks(): AsyncIterable<string>;
  /** The body as bytes; a failed read throws BodyReadError. */
  byteChunks(): AsyncIterable<Uint8Array>;
  /** The whole body as text; a failed read throws BodyReadError. */
  text(): Promise<string>;
  /** Stops reading the body and releases the connection (nothing else is read). */
  cancel(): void;
}

/** Sends one request; rejects with the network failure (or the signal's reason) when no answer arrives. */
export type HttpTransport = (request: HttpRequest) => Promise<HttpResponse>;

/** Reads response headers: a web `Headers` fits. */
export interface HeaderSource {
  get(name: string): string | null;
}

/** Wraps a failure of reading the response body, so it is told apart from errors of the adapter's own callbacks. */
export class BodyReadError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = "BodyReadError";
  }
}
