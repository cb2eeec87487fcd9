/**
 * Hostile requests over bare sockets (what fetch refuses to send): random request lines, Host
 * and framing headers, header bytes and bodies. Whatever arrives, the answer is below 500, an
 * error is a well-formed JSON body with a code and a bounded message, and the server stays well.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { memoryStorage } from "glove-server";
import { startServer, type TestServer } from "./support/harness.js";
import { RawConnection } from "./support/raw-http.js";

let s: TestServer;
let port: number;
let id: string;
const logged: unknown[] = [];
beforeAll(async () => {
  s = await startServer({
    store: memoryStorage(),
    log: (message, error) => void logged.push([message, error]),
    kit: { script: [], delayMs: 0 },
  });
  // Short request timeouts: a request left incomplete is answered (408) quickly instead of waited for.
  port = (await s.server.listen({ headersTimeoutMs: 500, requestTimeoutMs: 500 })).port;
  id = await s.conversation();
});
afterAll(() => s.close());

const latin1 = (maxLength: number) =>
  fc.uint8Array({ maxLength }).map((bytes) => Buffer.from(bytes).toString("latin1"));
const printable = (maxLength: number) => fc.string({ maxLength, unit: "binary-ascii" });

const method = fc.oneof(
  fc.constantFrom(
    "GET",
    "POST",
    "DELETE",
    "PUT",
    "PATCH",
    "OPTIONS",
    "TRACE",
    "CONNECT",
    "PROPFIND",
    "BREW",
    "get",
    "G ET",
    "",
  ),
  printable(12),
);
const target = fc.oneof(
  fc.constantFrom(
    "*",
    "/",
    "/conversations",
    "//conversations",
    "/conversations/%",
    "/%00",
    "/..%2f..",
    "host:443",
    "conversations",
  ),
  fc.constantFrom(
    "http://evil.example/conversations",
    "http://127.0.0.1/conversations",
    "https://[::1]/conversations",
    "ftp://x/",
    "http://a b/",
    "http:///x",
  ),
  fc
    .constantFrom(
      "",
      "/messages",
      "/abort",
      "/slots/x",
      "/x",
      "/regenerate",
      "/branches",
      "/branches/x",
      "/messages/x/edit",
    )
    .map((tail) => `/conversations/ID${tail}`),
  printable(60).map((text) => `/${text}`),
  fc.constant(`/${"a".repeat(6000)}`),
);
const version = fc.constantFrom(
  "HTTP/1.1",
  "HTTP/1.1",
  "HTTP/1.1",
  "HTTP/1.0",
  "HTTP/2.0",
  "HTTP/9.9",
  "",
  "HTTP/1.1 extra",
);
const host = fc.oneof(
  fc.constantFrom(
    "127.0.0.1",
    "localhost",
    "[::1]",
    "evil.example",
    "a b",
    "[",
    "x/y",
    "u@h",
    "h:99999",
    "h:-1",
    "",
    "127.0.0.1:0",
    "0x7f.1",
    "%41",
  ),
  printable(40),
  latin1(20),
);
const headerLine = fc.oneof(
  host.map((value) => `host: ${value}`),
  fc
    .constantFrom("0", "5", "-1", "1e3", "99999999999999999999", "10, 20", "abc", "")
    .map((value) => `content-length: ${value}`),
  fc.constantFrom("chunked", "gzip", "chunked, chunked", "identity", "x").map((value) => `transfer-encoding: ${value}`),
  fc
    .constantFrom("application/json", "text/plain", "application/json; charset=latin1", "x".repeat(3000))
    .map((value) => `content-type: ${value}`),
  fc
    .constantFrom("Bearer alice", "Bearer ", "Basic x", "Bearer " + "b".repeat(500))
    .map((value) => `authorization: ${value}`),
  fc.constantFrom("http://evil.example", "null", "http://127.0.0.1", "").map((value) => `origin: ${value}`),
  fc.constantFrom(
    "expect: 100-continue",
    "connection: upgrade",
    "upgrade: websocket",
    "connection: close",
    "sec-fetch-site: cross-site",
    "last-event-id: x",
  ),
  fc.tuple(printable(20), latin1(60)).map(([name, value]) => `${name}: ${value}`),
  latin1(80),
);
const body = fc.oneof(
  fc.constant(""),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.integer({ min: 1, max: 5000 }).map((depth) => `{"agent":${"[".repeat(depth)}${"]".repeat(depth)}}`),
  fc
    .integer({ min: 1, max: 3000 })
    .map((depth) => `{"text":"hi","resolve":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}`),
  fc
    .record({ agent: fc.jsonValue(), text: fc.jsonValue() }, { requiredKeys: [] })
    .map((value) => JSON.stringify(value)),
  latin1(300),
  fc.constant("5\r\nhello\r\n0\r\n\r\n"),
);

describe("hostile requests over bare sockets", () => {
  it("are answered below 500 with a well-formed JSON error, and the server keeps working", async () => {
    await fc.assert(
      fc.asyncProperty(
        method,
        target,
        version,
        fc.array(headerLine, { maxLength: 6 }),
        body,
        async (m, t, v, lines, b) => {
          const text = `${m} ${t.replace("ID", id)} ${v}\r\n${lines.map((line) => `${line}\r\n`).join("")}\r\n${b}`;
          const connection = new RawConnection(port);
          try {
            await connection.send(Buffer.from(text, "latin1"));
            const answered = () => connection.responses.some((r) => r.status >= 200);
            expect(
              await connection.until((c) => c.closed || answered(), 10_000),
              `no answer and no close for ${JSON.stringify(text.slice(0, 300))}`,
            ).toBe(true);
            const response = connection.responses.find((r) => r.status >= 200);
            // A connection closed without an answer is allowed only when nothing could be answered.
            if (!response) return void expect(connection.received.length).toBe(0);
            expect(response.status, text.slice(0, 300)).toBeLessThan(500);
            if (response.status < 400) return;
            expect(response.headers["content-type"]).toMatch(/^application\/json/);
            const error = (JSON.parse(response.body) as { error: { code: unknown; message: unknown } }).error;
            expect(error.code).toMatch(/^GLOVE_[A-Z_]+$/);
            expect(typeof error.message).toBe("string");
            expect((error.message as string).length).toBeLessThan(400);
            expect(response.body).not.toMatch(/\n\s+at /);
            expect(response.headers["x-content-type-options"]).toBe("nosniff");
          } finally {
            connection.destroy();
          }
        },
      ),
      { numRuns: 250, seed: 20261126 },
    );
    expect(logged).toEqual([]);
    expect((await s.api(`/conversations/${id}`)).status).toBe(200);
  }, 120_000);
});
