/// <reference types="node" />
// Reached only through "#http-transport" under the "node" condition (decision 0035); browser-safety is
// checked on the resolved graph (test/models/browser-safe-models.test.ts), so the blanket rule is lifted here.
/* eslint-disable no-restricted-imports */
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Socket } from "node:net";
import { byteChunks, ChunkQueue, decodedBody, textChunks } from "./node-body.js";
import type { HttpRequest, HttpResponse, HttpTransport } from "./types.js";

/** How long an idle keep-alive connection is kept when the server gives no hint (undici's default). */
const IDLE_MS = 4_000;
const idleHint = Symbol("glove idle hint");
type HintedSocket = Socket & { [idleHint]?: number };

/**
 * Keeps connections alive between calls, closing an idle one before the server would (its
 * `Keep-Alive: timeout=N` hint less a second, else 4 s), so a reused socket is not one the server
 * is closing at that moment.
 */
function keepAliveAgent<A extends HttpAgent>(Base: new (options: { keepAlive: boolean }) => A): A {
  const agent = new Base({ keepAlive: true });
  // Node's own keepSocketAlive returns whether to keep the socket (typed void in @types/node).
  const keep = agent.keepSocketAlive.bind(agent) as (socket: Socket) => unknown;
  agent.keepSocketAlive = (socket) => {
    const hinted = socket as HintedSocket;
    if (!keep(hinted)) return false as unknown as void;
    hinted.setTimeout(hinted[idleHint] ?? IDLE_MS);
    return true as unknown as void;
  };
  const reuse = agent.reuseSocket.bind(agent);
  agent.reuseSocket = (socket, request) => {
    (socket as Socket).setTimeout(0); // in use: the request's own timeout (the transport's signal) applies
    reuse(socket, request);
  };
  return agent;
}

const agents = { "http:": keepAliveAgent(HttpAgent), "https:": keepAliveAgent(HttpsAgent) };

/** Thrown for a 3xx answer: like fetch with `redirect: "error"`, we never follow one. */
class RedirectRefused extends Error {
  constructor(status: number, location: string | undefined) {
    super(`unexpected redirect (${status}${location ? ` to ${location}` : ""})`);
    this.name = "RedirectRefused";
  }
}

/**
 * The transport over `node:http` / `node:https` with keep-alive agents: no web streams and no
 * Request/Response objects, which is most of what `fetch` costs per call in Node. It asks for
 * `accept-encoding: identity` (a model's answer is small; decompressing it costs CPU) and still
 * decodes gzip, deflate and br should a server compress anyway.
 */
export const nodeTransport: HttpTransport = (request: HttpRequest) =>
  new Promise<HttpResponse>((resolve, reject) => {
    const { signal } = request;
    if (signal.aborted) return reject(signal.reason);
    let req: ClientRequest;
    try {
      const url = parsedUrl(request.url);
      const agent = url.protocol === "http:" || url.protocol === "https:" ? agents[url.protocol] : undefined;
      if (!agent) throw new TypeError(`unsupported protocol ${url.protocol}`);
      const send = url.protocol === "https:" ? httpsRequest : httpRequest;
      req = send(url, { method: "POST", agent, headers: requestHeaders(request) });
    } catch (error) {
      return reject(error); // a malformed URL or header value, as fetch would reject it
    }
    let queue: ChunkQueue | undefined;
    const onAbort = () => {
      if (queue) queue.destroy(signal.reason);
      else {
        req.destroy();
        reject(signal.reason);
      }
    };
    signal.addEventListener("abort", onAbort, { once: true });
    const settle = () => signal.removeEventListener("abort", onAbort);
    req.on("error", (error) => {
      if (queue) queue.fail(error);
      else {
        settle();
        reject(error);
      }
    });
    req.on("response", (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location !== undefined) {
        settle();
        response.destroy();
        req.destroy();
        return reject(new RedirectRefused(status, response.headers.location));
      }
      const hint = /timeout=(\d+)/i.exec(String(response.headers["keep-alive"] ?? ""));
      // timeout=1 leaves no safe margin: 1 ms, i.e. close it once idle (0 would mean never).
      if (hint && response.socket)
        (response.socket as HintedSocket)[idleHint] = Math.max(1, Number(hint[1]) * 1000 - 1000);
      queue = new ChunkQueue(decodedBody(response), settle);
      resolve(nodeResponse(status, response, queue));
    });
    req.end(request.body);
  });

/** The last URL called and its parse: an adapter calls one endpoint, and node:http only reads the URL it is given. */
let lastUrl: { text: string; url: URL } | undefined;

function parsedUrl(text: string): URL {
  if (lastUrl?.text !== text) lastUrl = { text, url: new URL(text) };
  return lastUrl.url;
}

function requestHeaders(request: HttpRequest): Record<string, string> {
  const headers: Record<string, string> = { accept: "*/*", "user-agent": "node", "accept-encoding": "identity" };
  const names = new Map(Object.keys(headers).map((name) => [name, name]));
  for (const [name, value] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    const own = names.get(lower);
    if (own !== undefined && own !== name) delete headers[own];
    headers[name] = value;
    names.set(lower, name);
  }
  headers["content-length"] = String(Buffer.byteLength(request.body));
  return headers;
}

function nodeResponse(status: number, response: IncomingMessage, queue: ChunkQueue): HttpResponse {
  return {
    status,
    ok: status >= 200 && status < 300,
    headers: {
      get(name) {
        const value = response.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
      },
    },
    textChunks: () => textChunks(queue),
    byteChunks: () => byteChunks(queue),
    async text() {
      let text = "";
      for await (const chunk of textChunks(queue)) text += chunk;
      return text;
    },
    cancel: () => queue.destroy(),
  };
}
