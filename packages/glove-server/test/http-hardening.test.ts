/**
 * Requests node accepts but a fetch handler cannot take (malformed Host, absolute-form and
 * asterisk targets, TRACE), values that used to overflow the stack, unbounded echoes, and early
 * answers on a keep-alive connection whose body was never read: all 4xx, never a 5xx or a hang.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryStorage } from "glove-server";
import { startServer, type TestServer } from "./support/harness.js";
import { exchange, RawConnection, request, type RawResponse } from "./support/raw-http.js";

let s: TestServer;
let port: number;
const logged: unknown[] = [];
beforeAll(async () => {
  s = await startServer({
    store: memoryStorage(),
    limits: { bodyBytes: 1000 },
    log: (message, error) => void logged.push([message, error]),
  });
  port = s.listening.port;
});
afterAll(() => s.close());

const AUTH = { authorization: "Bearer alice" };
const hostHeader = () => ({ host: `127.0.0.1:${port}` });

function expectJsonError(
  response: RawResponse | undefined,
  status: number,
  code?: string,
): { code: string; message: string } {
  expect(response?.status).toBe(status);
  expect(response?.headers["content-type"]).toMatch(/^application\/json/);
  const { error } = JSON.parse(response!.body) as { error: { code: string; message: string } };
  if (code) expect(error.code).toBe(code);
  return error;
}

describe("input node accepts but a Request cannot carry", () => {
  it.each([
    ["with a space", "a b"],
    ["with a path", "127.0.0.1/conversations"],
    ["with credentials", "user@127.0.0.1"],
    ["with a bad port", "127.0.0.1:99999"],
    ["a lone bracket", "["],
    ["empty", ""],
  ])("answers a Host header %s with 400", async (_name, host) => {
    const [response] = await exchange(port, request("GET", "/conversations", { host, ...AUTH }));
    expectJsonError(response, 400);
  });

  it("answers two Host headers with 400", async () => {
    const [response] = await exchange(
      port,
      `GET /conversations HTTP/1.1\r\nhost: 127.0.0.1\r\nhost: evil.example\r\n${"authorization: Bearer alice"}\r\n\r\n`,
    );
    expectJsonError(response, 400, "GLOVE_BAD_REQUEST");
  });

  it("takes the host of an absolute-form target from the target, and checks it", async () => {
    const [evil] = await exchange(
      port,
      request("GET", "http://evil.example/conversations", { ...hostHeader(), ...AUTH }),
    );
    expectJsonError(evil, 421, "GLOVE_HOST_NOT_ALLOWED");
    const [own] = await exchange(
      port,
      request("GET", `http://127.0.0.1:${port}/conversations`, { host: "evil.example", ...AUTH }),
    );
    expect(own?.status).toBe(200);
    const [notHttp] = await exchange(
      port,
      request("GET", "ftp://127.0.0.1/conversations", { ...hostHeader(), ...AUTH }),
    );
    expect(notHttp!.status).toBeGreaterThanOrEqual(400);
    expect(notHttp!.status).toBeLessThan(500);
  });

  it.each(["GET", "OPTIONS", "POST"])("answers an asterisk-form target (%s *) with 400", async (method) => {
    const [response] = await exchange(port, request(method, "*", { ...hostHeader(), ...AUTH }));
    expectJsonError(response, 400, "GLOVE_BAD_REQUEST");
  });

  it.each(["TRACE", "CONNECT"])("answers %s with 405 and the methods it serves", async (method) => {
    const target = method === "CONNECT" ? `127.0.0.1:${port}` : "/conversations";
    const [response] = await exchange(port, request(method, target, { ...hostHeader(), ...AUTH }));
    const { message } = expectJsonError(response, 405, "GLOVE_METHOD_NOT_ALLOWED");
    expect(response!.headers.allow).toMatch(/GET/);
    expect(message).toMatch(new RegExp(method));
  });

  it("answers what node's parser refuses with a JSON 400", async () => {
    const [response] = await exchange(port, "GET /conversations HTTP/1.1\r\nbad header line\r\n\r\n");
    expectJsonError(response, 400, "GLOVE_BAD_REQUEST");
  });

  it("never writes a parser error into a response under way: the connection just closes", async () => {
    const id = await s.conversation();
    const connection = new RawConnection(port);
    try {
      await connection.send(request("GET", `/conversations/${id}/events`, { ...hostHeader(), ...AUTH }));
      expect(await connection.until((c) => c.received.includes("event: snapshot"))).toBe(true);
      await connection.send("NOT HTTP AT ALL\r\n\r\n");
      expect(await connection.until((c) => c.closed)).toBe(true);
      expect(connection.received.toString()).not.toContain("GLOVE_BAD_REQUEST");
    } finally {
      connection.destroy();
    }
  });
});

describe("values that used to reach recursive code or come back whole", () => {
  it("answers a deeply nested agent with 400, not a stack overflow", async () => {
    const roomy = await startServer({ store: memoryStorage() });
    try {
      // Deep enough to overflow JSON.stringify (what echoing the agent used to do), well within 1 MiB.
      const deep = `{"agent":${"[".repeat(200_000)}${"]".repeat(200_000)}}`;
      const response = await roomy.api("/conversations", {
        raw: deep,
        headers: { "content-type": "application/json" },
      });
      expect(response.status).toBe(400);
      expect(response.body.error.message).toMatch(/deeper than 64/);
      const object = await roomy.api("/conversations", {
        raw: `{"agent":${'{"a":'.repeat(100)}1${"}".repeat(100)}}`,
        headers: { "content-type": "application/json" },
      });
      expect(object.status).toBe(400);
      expect(object.body.error.issues[0].path).toMatch(/^agent\.a\.a/);
    } finally {
      await roomy.close();
    }
  });

  it("repeats at most 100 characters of what the client sent", async () => {
    const long = "x".repeat(900);
    const agent = await s.api("/conversations", { body: { agent: long } });
    expect(agent.status).toBe(400);
    expect(agent.body.error.message.length).toBeLessThan(300);
    const other = await s.api("/conversations", { body: { agent: { nested: long } } });
    expect(other.body.error.message).not.toContain(long.slice(0, 101));
    const id = await s.conversation();
    const after = await s.api(`/conversations/${id}/events?after=${long}`);
    expect(after.status).toBe(400);
    expect(after.body.error.message.length).toBeLessThan(300);
    const route = await s.api(`/${long}`);
    expect(route.status).toBe(404);
    expect(route.body.error.message.length).toBeLessThan(300);
    const type = await s.api("/conversations", { raw: "{}", headers: { "content-type": `text/${long}` } });
    expect(type.status).toBe(415);
    expect(type.body.error.message.length).toBeLessThan(300);
  });
});

describe("an early answer on a keep-alive connection", () => {
  it("closes the connection after a 413 sent before the body was read, so the next request never hangs", async () => {
    const connection = new RawConnection(port);
    try {
      const big = request("POST", "/conversations", {
        ...hostHeader(),
        ...AUTH,
        "content-type": "application/json",
        "content-length": "100000",
      });
      await connection.send(`${big}{"agent":"`);
      await connection.send(request("GET", "/conversations", { ...hostHeader(), ...AUTH }));
      expect(await connection.until((c) => c.closed || c.responses.length >= 2)).toBe(true);
      expectJsonError(connection.responses[0], 413, "GLOVE_TOO_LARGE");
      expect(connection.responses[0]!.headers.connection).toBe("close");
      // Either the second request was answered, or the server said it would not be (closed).
      expect(connection.responses[1]?.status ?? "closed").toSatisfy(
        (v) => v === 200 || (v === "closed" && connection.closed),
      );
    } finally {
      connection.destroy();
    }
  });

  it("delivers the 413 for a chunked body over the limit before closing", async () => {
    const connection = new RawConnection(port);
    try {
      const head = request("POST", "/conversations", {
        ...hostHeader(),
        ...AUTH,
        "content-type": "application/json",
        "transfer-encoding": "chunked",
      });
      const chunk = "x".repeat(800);
      await connection.send(`${head}${(800).toString(16)}\r\n${chunk}\r\n${(800).toString(16)}\r\n${chunk}\r\n`);
      expect(await connection.until((c) => c.responses.length >= 1 || c.closed)).toBe(true);
      expectJsonError(connection.responses[0], 413, "GLOVE_TOO_LARGE");
      expect(await connection.until((c) => c.closed)).toBe(true);
    } finally {
      connection.destroy();
    }
  });

  it("keeps the connection for the next request when the body was read", async () => {
    const connection = new RawConnection(port);
    try {
      await connection.send(
        request("POST", "/conversations", { ...hostHeader(), ...AUTH, "content-type": "application/json" }, "{}"),
      );
      await connection.send(request("GET", "/conversations", { ...hostHeader(), ...AUTH }));
      expect(await connection.until((c) => c.responses.length >= 2)).toBe(true);
      expect(connection.responses.map((r) => r.status)).toEqual([201, 200]);
      expect(connection.closed).toBe(false);
    } finally {
      connection.destroy();
    }
  });
});
