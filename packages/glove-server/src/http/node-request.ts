import type { IncomingMessage } from "node:http";
import { badRequest, HttpError, quoted } from "../errors.js";
import type { ConnectionAbort } from "./connection-abort.js";

/** Methods node parses but a web Request refuses to carry (and no route of ours serves). */
const UNSERVED_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);
/** What a 405 for one of them lists as served (the methods a fetch handler can be given). */
export const SERVED_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

/** Bodies up to this size (by Content-Length) are read in node and handed over whole: cheaper than a web stream. */
const SMALL_BODY = 64 * 1024;

/**
 * The web Request for what node parsed. Input node accepts but a Request cannot represent (a
 * malformed Host, a target that is not a path, TRACE) is the client's mistake: it throws an
 * HttpError with a 4xx, never something the caller would answer as a 500.
 */
export async function toRequest(req: IncomingMessage, signal: ConnectionAbort): Promise<Request> {
  const method = req.method ?? "GET";
  if (UNSERVED_METHODS.has(method)) {
    throw new HttpError(405, "GLOVE_METHOD_NOT_ALLOWED", `${method} is not served here; use ${SERVED_METHODS}.`, {
      headers: { allow: SERVED_METHODS },
    });
  }
  const url = requestUrl(req);
  // Without Content-Length or Transfer-Encoding a request has no body (RFC 9112 §6.3), as a DELETE
  // usually has none: the Request gets none either (fetch makes the same), not an empty stream.
  const declared = req.headers["content-length"];
  const hasBody =
    method !== "GET" && method !== "HEAD" && (declared !== undefined || req.headers["transfer-encoding"] !== undefined);
  if (!hasBody) return withHeaders(new NodeRequest(url, { method }, signal), req);
  const length = Number(declared);
  if (declared !== undefined && Number.isInteger(length) && length >= 0 && length <= SMALL_BODY) {
    const body = await readSmallBody(req, length);
    return withHeaders(new NodeRequest(url, { method, body }, signal, body), req);
  }
  // Large or chunked bodies stream, so the handler's size limit cuts them off early.
  return withHeaders(
    new NodeRequest(url, { method, body: bodyStream(req), duplex: "half" } as RequestInit, signal),
    req,
  );
}

/**
 * The client's headers, appended to the Request's own Headers: given as `init.headers`, undici
 * would copy a Headers built first (a second list, its entries as arrays). Neither body kind given
 * here makes undici add a content-type, so the result is the same list.
 */
function withHeaders(request: NodeRequest, req: IncomingMessage): NodeRequest {
  const { headers } = request;
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  return request;
}

/**
 * The bytes of a small body `toRequest` read whole, while nobody has read the Request's body:
 * the Request then counts as read (as after `request.text()`), so the bytes are handed out once.
 * Undefined for any other Request, or once its body was read or locked.
 */
export function takeWholeBody(request: Request): Uint8Array | undefined {
  const bytes = request instanceof NodeRequest ? take(request, "body") : undefined;
  const stream = request.body;
  if (!bytes || request.bodyUsed || !stream || stream.locked) return undefined;
  // Cancelling marks the body used without a reader, two reads and their promises.
  void stream.cancel().catch(() => undefined);
  return bytes;
}

/**
 * The parsed URL of a Request made by `toRequest`, once (a fresh object the caller may keep);
 * undefined for any other Request. Saves parsing the text `request.url` again per request.
 */
export function takeParsedUrl(request: Request): URL | undefined {
  return request instanceof NodeRequest ? take(request, "url") : undefined;
}

/** What a NodeRequest holds for this module only, handed out once (set in its static block). */
let take: {
  (request: NodeRequest, what: "url"): URL | undefined;
  (request: NodeRequest, what: "body"): Uint8Array | undefined;
};

/**
 * A Request whose `signal` is the connection's own (made when first read, see ConnectionAbort).
 * Given as `init.signal`, undici would make the Request a second signal following it (a listener,
 * a WeakRef and a finalizer registration per request); handlers read `request.signal` and see
 * the same thing either way.
 */
class NodeRequest extends Request {
  readonly #signal: ConnectionAbort;
  /** Private, not members: a handler sees a Request with nothing added to it. */
  #url: URL | undefined;
  #wholeBody: Uint8Array | undefined;

  constructor(url: URL, init: RequestInit, signal: ConnectionAbort, wholeBody?: Uint8Array) {
    super(url.href, init);
    this.#signal = signal;
    this.#url = url;
    this.#wholeBody = wholeBody;
  }

  static {
    take = ((request: NodeRequest, what: "url" | "body") => {
      if (what === "url") {
        const url = request.#url;
        request.#url = undefined;
        return url;
      }
      const body = request.#wholeBody;
      request.#wholeBody = undefined;
      return body;
    }) as typeof take;
    // An accessor on the prototype: TypeScript types Request's `signal` as a property, which a class cannot override with a getter.
    Object.defineProperty(NodeRequest.prototype, "signal", {
      get(this: NodeRequest) {
        return this.#signal.signal;
      },
      configurable: true,
    });
  }
}

/**
 * The absolute URL of the request. The origin-form target (`/path`) is joined to Host, which must
 * be a bare host[:port]; an absolute-form target (`http://host/path`) names its own host, as
 * RFC 9112 requires servers to accept (the handler's host check then decides). Anything else
 * (`*`, `host:443`, a relative path) is not a request for a resource here.
 */
function requestUrl(req: IncomingMessage): URL {
  const target = req.url ?? "/";
  if (/^https?:\/\//i.test(target)) {
    const url = URL.parse(target);
    if (!url) throw badRequest(`The request target ${quoted(target)} is not a valid URL.`);
    return url;
  }
  if (!target.startsWith("/")) {
    throw badRequest(
      `The request target ${quoted(target)} is not a path. Send the path of a resource, starting with "/".`,
    );
  }
  const hosts = req.rawHeaders.filter((_, i) => i % 2 === 0 && req.rawHeaders[i]!.toLowerCase() === "host").length;
  if (hosts > 1) throw badRequest("The request has more than one Host header; send exactly one.");
  // HTTP/1.1 requires Host (node's own check answers without a body, so it is off and done here).
  if (req.headers.host === undefined && req.httpVersion === "1.1")
    throw badRequest("The request has no Host header; send the server's name in one.");
  const host = req.headers.host ?? "localhost";
  // Joined as text, not resolved: a target like "//other/x" stays a path on this host.
  const url = URL.parse(`http://${authorityOf(host)}${target}`);
  if (!url) throw badRequest(`The request target ${quoted(target)} is not a valid path.`);
  return url;
}

/** The last Host header found well-formed and its authority: a server's clients send the same one. */
let lastHost: { header: string; authority: string } | undefined;

/** The Host header as a URL authority (normalised), or a 400 when it is more than host[:port]. */
function authorityOf(host: string): string {
  if (lastHost?.header === host) return lastHost.authority;
  const origin = URL.parse(`http://${host}`);
  // The Host header must be only an authority: no path, query, fragment or credentials hidden in it.
  if (!origin || origin.host === "" || origin.href !== `http://${origin.host}/`) {
    throw badRequest(
      `The Host header ${quoted(host)} is malformed. Send the server's name and, if not the default, its port.`,
    );
  }
  lastHost = { header: host, authority: origin.host };
  return origin.host;
}

function readSmallBody(req: IncomingMessage, length: number): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      // A client that sends more than it announced is cut off; the handler sees what was announced.
      if (size <= length) chunks.push(chunk);
    });
    req.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    req.on("error", () => reject(badRequest("The request body could not be read.")));
    // The client went away before sending the whole body.
    req.on("close", () => {
      if (!req.complete) reject(badRequest("The request body was cut off before its announced length."));
    });
  });
}

/**
 * The body as a web stream, read only as fast as the handler pulls. Cancelling it (a size limit
 * hit) only stops reading: unlike `Readable.toWeb`, it does not destroy the request, whose socket
 * must still carry the 413; the response then closes the connection (see writeResponse).
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.pause();
        req.on("data", (chunk: Buffer) => {
          if (cancelled) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.on("end", () => {
          if (!cancelled) controller.close();
        });
        req.on("close", () => {
          if (!cancelled && !req.complete) controller.error(badRequest("The request body was cut off."));
        });
        req.on("error", () => undefined);
      },
      pull() {
        req.resume();
      },
      cancel() {
        cancelled = true;
        req.pause();
      },
    },
    { highWaterMark: SMALL_BODY, size: (chunk) => chunk.byteLength },
  );
}
