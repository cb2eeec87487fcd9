import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AbortError, ProviderError } from "../../../src/errors.js";
import { fetchTransport } from "../../../src/models/shared/http/fetch.js";
import { nodeTransport } from "../../../src/models/shared/http/node.js";
import type { HttpResponse, HttpTransport } from "../../../src/models/shared/http/types.js";
import { post, type TransportOptions } from "../../../src/models/shared/transport.js";
import { drip, startServer, type TestServer } from "./server.js";

// One set of cases, run against both transports over a real 127.0.0.1 server: what the adapters
// see must not depend on which one carried the request (decision 0035).

const transports: Array<[string, HttpTransport, Pick<TransportOptions, "fetch">]> = [
  ["node:http", nodeTransport, {}],
  ["fetch", fetchTransport(), { fetch: (input, init) => globalThis.fetch(input, init) }],
];

const TEXT = "héllo wörld — 日本語 🎉 ".repeat(20);
const SSE = `data: ${JSON.stringify({ text: TEXT })}\n\ndata: [DONE]\n\n`;

let server: TestServer;
/** A port nothing listens on (a server's, closed). */
let closedUrl: string;
beforeAll(async () => {
  const gone = await startServer({});
  await gone.close();
  closedUrl = gone.url;
  server = await startServer({
    echo: (req, res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(req)),
    // Bytes split inside multi-byte characters, a few ms apart.
    sse: (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream", "x-thing": "a" });
      const bytes = Buffer.from(SSE);
      const parts: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += 7) parts.push(bytes.subarray(i, i + 7));
      drip(res, [...parts.slice(0, 40), Buffer.concat(parts.slice(40))], 0);
    },
    gzip: (_req, res) =>
      res.writeHead(200, { "content-type": "text/event-stream", "content-encoding": "gzip" }).end(gzipSync(SSE)),
    status: (req, res) => {
      const query = new URLSearchParams(req.path.split("?")[1]);
      const headers: Record<string, string> = { "content-type": "application/json" };
      for (const name of ["retry-after", "retry-after-ms", "x-should-retry"])
        if (query.has(name)) headers[name] = query.get(name)!;
      res
        .writeHead(Number(query.get("code")), headers)
        .end(JSON.stringify({ error: { message: `said ${query.get("code")}`, type: "some_type" } }));
    },
    redirect: (_req, res) => res.writeHead(302, { location: "/echo" }).end(),
    hang: () => {},
    stall: (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: 1\n\n");
    },
    cut: (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: 1\n\n");
      setTimeout(() => res.socket?.destroy(), 10);
    },
  });
});
afterAll(() => server.close());

const request = (path: string, signal = new AbortController().signal, body = "{}") => ({
  url: `${server.url}${path}`,
  headers: { "content-type": "application/json", authorization: "Bearer k" },
  body,
  signal,
});

async function allText(response: HttpResponse): Promise<string> {
  let text = "";
  for await (const chunk of response.textChunks()) text += chunk;
  return text;
}

async function failure(run: Promise<unknown>): Promise<unknown> {
  try {
    await run;
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

describe.each(transports)("transport conformance: %s", (_name, transport, fetchOption) => {
  const options = (extra: Partial<TransportOptions> = {}): TransportOptions => ({
    provider: "test",
    retryBaseDelayMs: 1,
    ...fetchOption,
    ...extra,
  });

  it("sends the body and headers as given (UTF-8, content-length of the bytes)", async () => {
    const body = JSON.stringify({ text: TEXT });
    const response = await transport(request("/echo", undefined, body));
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.headers.get("Content-Type")).toBe("application/json");
    const seen = JSON.parse(await response.text()) as { body: string; headers: Record<string, string> };
    expect(seen.body).toBe(body);
    expect(seen.headers["content-length"]).toBe(String(Buffer.byteLength(body)));
    expect(seen.headers["authorization"]).toBe("Bearer k");
    expect(seen.headers["content-type"]).toBe("application/json");
  });

  it("sends the caller's own accept-encoding and user-agent as given, whatever their case", async () => {
    const base = request("/echo");
    const response = await transport({
      ...base,
      headers: { ...base.headers, "Accept-Encoding": "gzip", "User-Agent": "mine/1" },
    });
    const seen = JSON.parse(await response.text()) as { headers: Record<string, string> };
    expect(seen.headers["accept-encoding"]).toBe("gzip");
    expect(seen.headers["user-agent"]).toBe("mine/1");
    expect(seen.headers["accept"]).toBe("*/*");
  });

  it("decodes text split inside multi-byte characters, and gives the same bytes", async () => {
    expect(await allText(await transport(request("/sse")))).toBe(SSE);
    const bytes: Uint8Array[] = [];
    for await (const chunk of (await transport(request("/sse"))).byteChunks()) bytes.push(chunk);
    expect(Buffer.concat(bytes).toString("utf8")).toBe(SSE);
  });

  it("decodes a gzip body the server sent unasked", async () => {
    const response = await transport(request("/gzip"));
    expect(await allText(response)).toBe(SSE);
  });

  it("keeps the connection for the next request once a body was read to its end", async () => {
    const before = server.connections;
    for (let i = 0; i < 3; i++) await (await transport(request("/sse"))).text();
    expect(server.connections - before).toBeLessThanOrEqual(1);
  });

  it("cancel() stops the body: the server sees the client leave", async () => {
    const path = `/stall?cancel-${_name}`;
    const response = await transport(request(path));
    const reader = response.textChunks()[Symbol.asyncIterator]();
    expect((await reader.next()).value).toBe("data: 1\n\n");
    response.cancel();
    await expect.poll(() => server.aborted).toContain(path);
  });

  it("retries a 429 after retry-after-ms, then reads the answer", async () => {
    let calls = 0;
    const url = `${server.url}/status?code=429&retry-after-ms=5`;
    const retries: number[] = [];
    const error = await failure(
      post(options({ maxRetries: 1 }), {
        url,
        headers: {},
        body: "{}",
        onRetry: async (n, delay) => void retries.push(n, delay),
      }),
    );
    calls = server.seen.filter((s) => s.path.startsWith("/status?code=429")).length;
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(retries).toEqual([1, 5]);
    expect(
      ProviderError.isInstance(error) &&
        error.status === 429 &&
        error.retryAfterMs === 5 &&
        error.providerMessage === "said 429",
    ).toBe(true);
  });

  it("x-should-retry: false wins over a 503", async () => {
    const url = `${server.url}/status?code=503&x-should-retry=false`;
    const error = await failure(post(options(), { url, headers: {}, body: "{}" }));
    expect(error).toMatchObject({ status: 503, retryable: false, providerCode: "some_type" });
  });

  it("a refused connection is a retryable ProviderError with status 0 naming the cause", async () => {
    const error = await failure(post(options({ maxRetries: 0 }), { url: `${closedUrl}/x`, headers: {}, body: "{}" }));
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 0, retryable: true });
    expect((error as ProviderError).providerMessage).toMatch(/^network error: .*ECONNREFUSED/);
  });

  it("a redirect is refused, not followed", async () => {
    const before = server.seen.filter((s) => s.path === "/echo").length;
    const error = await failure(
      post(options({ maxRetries: 0 }), { url: `${server.url}/redirect`, headers: {}, body: "{}" }),
    );
    expect(error).toMatchObject({ status: 0 });
    expect((error as ProviderError).providerMessage).toMatch(/^network error: .*redirect/);
    expect(server.seen.filter((s) => s.path === "/echo").length).toBe(before);
  });

  it("a header value no HTTP request can carry is a ProviderError, not a bare TypeError", async () => {
    const error = await failure(
      post(options({ maxRetries: 0 }), {
        url: `${server.url}/echo`,
        headers: { authorization: "Bearer a\nb" },
        body: "{}",
      }),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).providerMessage).toMatch(/^network error: /);
  });

  it("times out before the answer, and while reading the body, without retrying", async () => {
    const before = server.seen.filter((s) => s.path === "/hang").length;
    const early = await failure(
      post(options({ timeoutMs: 50 }), { url: `${server.url}/hang`, headers: {}, body: "{}" }),
    );
    expect(early).toMatchObject({ status: 0, providerMessage: "timed out: no complete answer within 50 ms" });
    expect(server.seen.filter((s) => s.path === "/hang").length).toBe(before + 1);

    const open = await post(options({ timeoutMs: 80 }), { url: `${server.url}/stall`, headers: {}, body: "{}" });
    const late = await failure(allText(open.response)).then((e) => open.readFailure(e));
    open.close();
    expect(late).toMatchObject({ status: 0, providerMessage: "timed out: no complete answer within 80 ms" });
    expect(open.timedOut()).toBe(true);
  });

  it("aborts before the answer and mid-body with AbortError, and closes the request", async () => {
    const early = new AbortController();
    setTimeout(() => early.abort(), 20);
    expect(
      await failure(post(options(), { url: `${server.url}/hang`, headers: {}, body: "{}", signal: early.signal })),
    ).toBeInstanceOf(AbortError);

    const late = new AbortController();
    const path = `/stall?abort-${_name}`;
    const open = await post(options(), { url: `${server.url}${path}`, headers: {}, body: "{}", signal: late.signal });
    const chunks = open.response.textChunks()[Symbol.asyncIterator]();
    expect((await chunks.next()).value).toBe("data: 1\n\n");
    late.abort(new Error("user left"));
    const error = open.readFailure(await failure(chunks.next()));
    open.close();
    expect(error).toBeInstanceOf(AbortError);
    await expect.poll(() => server.aborted).toContain(path);
  });

  it("a connection cut mid-body is a retryable ProviderError 'connection lost mid-stream'", async () => {
    const open = await post(options(), { url: `${server.url}/cut`, headers: {}, body: "{}" });
    const error = open.readFailure(await failure(allText(open.response)));
    open.close();
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 0, retryable: true });
    expect((error as ProviderError).providerMessage).toMatch(/^connection lost mid-stream: /);
  });
});
