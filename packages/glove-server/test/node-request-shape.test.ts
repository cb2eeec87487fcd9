/**
 * What listenNode builds per exchange, cheaply but the same to handlers: a request with no body
 * framing has no body (not an empty stream), the exchange's signal is made only when read (and is
 * already aborted when read after the client left), and the Host check answers alike whether or
 * not the same header was seen just before.
 */
import http from "node:http";
import net from "node:net";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import type { Listening } from "glove-server";
import { afterThisTest, httpText, serveNode } from "./support/serve-node.js";
import { ConnectionAbort } from "../src/http/connection-abort.js";
import { readJsonObject } from "../src/http/read-json.js";
import { HttpError } from "../src/errors.js";

const serve = serveNode;

/** One raw HTTP/1.1 exchange (the client closes after it): status line and body. */
function raw(port: number, head: string, body: string | Buffer = ""): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () =>
      socket.end(Buffer.concat([Buffer.from(`${head}\r\nconnection: close\r\n\r\n`), Buffer.from(body)])),
    );
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("end", () => {
      const [head = "", rest = ""] = [
        text.slice(0, text.indexOf("\r\n\r\n")),
        text.slice(text.indexOf("\r\n\r\n") + 4),
      ];
      resolve({
        status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1] ?? 0),
        body: /transfer-encoding: chunked/i.test(head) ? dechunk(rest) : rest,
      });
    });
    socket.on("error", reject);
  });
}

/** A chunked body's data (the answers here are small and well-formed). */
function dechunk(body: string): string {
  let out = "";
  for (let at = 0; ;) {
    const end = body.indexOf("\r\n", at);
    const size = parseInt(body.slice(at, end), 16);
    if (!size) return out;
    out += body.slice(end + 2, end + 2 + size);
    at = end + 2 + size + 2;
  }
}

/** What the handler saw of each request's body: null, or its text. */
async function bodyOf(request: Request): Promise<string> {
  return request.body === null ? "null" : JSON.stringify(await request.text());
}

describe("listenNode: the request's body", () => {
  it("is null without Content-Length or Transfer-Encoding (a DELETE, a bare POST), a stream when the request frames one", async () => {
    const { port } = await serve(async (request) => new Response(`${request.method} ${await bodyOf(request)}`));
    expect((await raw(port, `DELETE /x HTTP/1.1\r\nhost: 127.0.0.1:${port}`)).body).toBe("DELETE null");
    expect((await raw(port, `POST /x HTTP/1.1\r\nhost: 127.0.0.1:${port}`)).body).toBe("POST null");
    expect((await raw(port, `POST /x HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-length: 0`)).body).toBe('POST ""');
    expect((await raw(port, `DELETE /x HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-length: 2`, "hi")).body).toBe(
      'DELETE "hi"',
    );
    expect(
      (
        await raw(
          port,
          `POST /x HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ntransfer-encoding: chunked`,
          "2\r\nhi\r\n0\r\n\r\n",
        )
      ).body,
    ).toBe('POST "hi"');
    expect((await raw(port, `GET /x HTTP/1.1\r\nhost: 127.0.0.1:${port}`)).body).toBe("GET null");
  });

  it("keeps node's client DELETE (no body) on a keep-alive connection usable for the next request", async () => {
    const { port } = await serve(async (request) => new Response(`${request.method} ${await bodyOf(request)}`));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    afterThisTest(() => agent.destroy());
    const send = (method: string, body?: string) =>
      httpText({ host: "127.0.0.1", port, path: "/x", method, agent }, body);
    expect(await send("DELETE")).toBe("DELETE null");
    expect(await send("POST", "after")).toBe('POST "after"');
  });
});

describe("readJsonObject on a request listenNode read whole", () => {
  /** Answers what readJsonObject made of the body (limit 40 bytes), and whether the body counts as read after. */
  async function reader(before?: (request: Request) => Promise<unknown>): Promise<Listening> {
    return serve(async (request) => {
      const early = before ? await before(request) : undefined;
      try {
        const body = await readJsonObject(request, 40);
        return Response.json({ body, used: request.bodyUsed, early });
      } catch (error) {
        return Response.json({ status: HttpError.isInstance(error) ? error.status : 500 });
      }
    });
  }
  const post = (port: number, body: string | Buffer) =>
    raw(
      port,
      `POST /x HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}`,
      body,
    );

  it("reads it, and the body counts as read after, as when streamed", async () => {
    const { port } = await reader();
    expect(JSON.parse((await post(port, '{"text":"h\u00e9llo"}')).body)).toEqual({
      body: { text: "héllo" },
      used: true,
    });
    expect(JSON.parse((await post(port, Buffer.from('\ufeff{"a":1}'))).body)).toEqual({ body: { a: 1 }, used: true });
  });

  it("refuses invalid UTF-8 with 400 and a body over the limit with 413", async () => {
    const { port } = await reader();
    expect(
      JSON.parse((await post(port, Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]))).body),
    ).toEqual({ status: 400 });
    expect(JSON.parse((await post(port, JSON.stringify({ text: "x".repeat(60) }))).body)).toEqual({ status: 413 });
  });

  it("after the handler read the body itself, fails as on any used Request, never reading the bytes again", async () => {
    const { port } = await reader((request) => request.text());
    const used = new Request("http://x/", {
      method: "POST",
      body: '{"a":1}',
      headers: { "content-type": "application/json" },
    });
    await used.text();
    const failure = await readJsonObject(used, 40).catch((error: unknown) => error);
    expect(HttpError.isInstance(failure)).toBe(false); // a used body is the handler's own mistake (a TypeError): 500
    expect(JSON.parse((await post(port, '{"a":1}')).body)).toEqual({ status: 500 });
  });

  it("leaves a clone's body whole", async () => {
    let cloned: Promise<string> | undefined;
    const { port } = await reader(async (request) => void (cloned = request.clone().text()));
    expect(JSON.parse((await post(port, '{"a":2}')).body)).toEqual({ body: { a: 2 }, used: true });
    expect(await cloned).toBe('{"a":2}');
  });
});

describe("listenNode: the request's headers", () => {
  it("are every header the client sent, repeated ones joined as a Headers list joins them, with no content-type added", async () => {
    const { port } = await serve(async (request) => new Response(JSON.stringify([...request.headers])));
    const sent: Array<[string, string]> = [
      ["Host", `127.0.0.1:${port}`],
      ["X-Multi", "one"],
      ["x-multi", "two"],
      ["Cookie", "a=b"],
      ["Content-Length", "2"],
    ];
    const answer = await raw(
      port,
      `PUT /x HTTP/1.1\r\n${sent.map(([name, value]) => `${name}: ${value}`).join("\r\n")}`,
      "hi",
    );
    const expected = new Headers(sent);
    expected.append("connection", "close");
    expect(JSON.parse(answer.body)).toEqual([...expected]);
  });
});

describe("listenNode: the Host header", () => {
  it("is checked the same when the header before it was well-formed: a malformed one after a good one is refused, the good one still served", async () => {
    const { port } = await serve(async (request) => new Response(request.url));
    const good = `GET /a?b=1 HTTP/1.1\r\nhost: LocalHost:${port}`;
    for (let i = 0; i < 2; i++) {
      expect(await raw(port, good)).toEqual({ status: 200, body: `http://localhost:${port}/a?b=1` });
      for (const bad of [`localhost:${port}/x`, `user@localhost:${port}`, `localhost:${port}?q`, "", "local host"]) {
        expect((await raw(port, `GET /a HTTP/1.1\r\nhost: ${bad}`)).status).toBe(400);
      }
    }
    expect(await raw(port, `GET //other/x HTTP/1.1\r\nhost: 127.0.0.1:${port}`)).toEqual({
      status: 200,
      body: `http://127.0.0.1:${port}//other/x`,
    });
  });
});

describe("listenNode: the Host check's memory of the last good Host", () => {
  it("parses a Host header seen just before once, not per request", async () => {
    const { port } = await serve(async (request) => new Response(request.url));
    const parse = vi.spyOn(URL, "parse");
    afterThisTest(() => parse.mockRestore());
    const host = `127.0.0.1:${port}`;
    for (let i = 0; i < 3; i++) expect((await raw(port, `GET /a HTTP/1.1\r\nhost: ${host}`)).status).toBe(200);
    expect(parse.mock.calls.filter(([text]) => text === `http://${host}`)).toHaveLength(1);
  });

  it("property: whatever the order of good and bad Host headers, each is answered as on its own", async () => {
    const { port } = await serve(async (request) => new Response(request.url));
    // Each Host with what a check of it alone gives: the URL's authority, or a 400.
    const hosts: Array<[string, string | undefined]> = [
      [`localhost:${port}`, `localhost:${port}`],
      [`LocalHost:${port}`, `localhost:${port}`],
      [`127.0.0.1:${port}`, `127.0.0.1:${port}`],
      [`[::1]:${port}`, `[::1]:${port}`],
      [`localhost:0${port}`, `localhost:${port}`],
      [`localhost:${port}/x`, undefined],
      [`u@localhost:${port}`, undefined],
      [`localhost:${port}?q`, undefined],
      ["local host", undefined],
    ];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...hosts), { minLength: 1, maxLength: 8 }), async (sequence) => {
        for (const [host, authority] of sequence) {
          const answer = await raw(port, `GET /p?q=1 HTTP/1.1\r\nhost: ${host}`);
          if (authority === undefined) expect(answer.status).toBe(400);
          else expect(answer).toEqual({ status: 200, body: `http://${authority}/p?q=1` });
        }
      }),
      { numRuns: 25 },
    );
  });
});

describe("ConnectionAbort", () => {
  it("makes no signal until one is read; read after the abort, it is already aborted", () => {
    const connection = new ConnectionAbort();
    connection.abort();
    expect(connection.aborted).toBe(true);
    const { signal } = connection;
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).name).toBe("AbortError");
    expect(connection.signal).toBe(signal);
  });

  it("read before the abort, tells its listeners once, with the reason a controller gives", () => {
    const connection = new ConnectionAbort();
    const { signal } = connection;
    const reasons: unknown[] = [];
    signal.addEventListener("abort", () => reasons.push(signal.reason));
    expect(signal.aborted).toBe(false);
    connection.abort();
    connection.abort();
    expect(reasons).toHaveLength(1);
    expect((reasons[0] as Error).name).toBe("AbortError");
    expect(connection.signal).toBe(signal);
  });
});
