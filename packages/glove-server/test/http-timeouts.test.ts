/**
 * Connections are bounded in time and number (ListenOptions). Timeouts are set short here and
 * the closes are waited for generously (up to 20 s), so a slow machine cannot fail these tests.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ConfigurationError } from "glove-core";
import { listenNode, memoryStorage, type Listening } from "glove-server";
import { authenticate, startServer, type TestServer } from "./support/harness.js";
import { eventually } from "./support/polling.js";
import { RawConnection, request } from "./support/raw-http.js";

const ok = async () => new Response("ok");
const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});
async function listen(...args: Parameters<typeof listenNode>): Promise<Listening> {
  const listening = await listenNode(...args);
  cleanup.push(() => listening.close(0));
  return listening;
}
function connect(port: number): RawConnection {
  const connection = new RawConnection(port);
  cleanup.push(() => connection.destroy());
  return connection;
}
async function glove(
  options: Parameters<typeof startServer>[0],
  listenOptions: Parameters<TestServer["server"]["listen"]>[0],
) {
  const s = await startServer({ store: memoryStorage(), ...options });
  cleanup.push(() => s.close());
  const listening = await s.server.listen(listenOptions);
  return { s, port: listening.port };
}

describe("connection timeouts", () => {
  it("closes 1000 connections that never send a byte once headersTimeoutMs has passed", async () => {
    const { port } = await listen(ok, { headersTimeoutMs: 300, requestTimeoutMs: 300 });
    const idle = Array.from({ length: 1000 }, () => connect(port));
    await Promise.all(idle.map((c) => c.ready()));
    expect(await eventually(() => idle.every((c) => c.closed))).toBe(true);
    // The answer, where the socket could still take one, is a JSON 408.
    const answered = idle.find((c) => c.responses.length > 0)?.responses[0];
    expect(answered?.status).toBe(408);
    expect(JSON.parse(answered!.body).error.code).toBe("GLOVE_REQUEST_TIMEOUT");
  }, 60_000);

  it("closes a connection whose headers are trickled in", async () => {
    const { port } = await listen(ok, { headersTimeoutMs: 300, requestTimeoutMs: 300 });
    const slow = connect(port);
    await slow.send("GET / HTTP/1.1\r\nhost: 127.0.0.1\r\n");
    const drip = setInterval(() => void slow.send("x-pad: 1\r\n"), 50);
    cleanup.push(() => clearInterval(drip));
    expect(await slow.until((c) => c.closed)).toBe(true);
  });

  for (const credentials of [true, false]) {
    it(`cuts off a request body trickled in ${credentials ? "with" : "without"} credentials after requestTimeoutMs`, async () => {
      const { port } = await glove({}, { headersTimeoutMs: 300, requestTimeoutMs: 300 });
      const slow = connect(port);
      const headers: Record<string, string> = {
        host: "127.0.0.1",
        "content-type": "application/json",
        "content-length": "1000",
      };
      if (credentials) headers.authorization = "Bearer alice";
      await slow.send(`${request("POST", "/conversations", headers)}{`);
      const drip = setInterval(() => void slow.send(" "), 50);
      cleanup.push(() => clearInterval(drip));
      expect(await slow.until((c) => c.closed)).toBe(true);
      // 408 when the body is awaited first; a 401 before the body closes the connection too.
      expect([401, 408]).toContain(slow.responses[0]?.status);
    });
  }

  it("closes a connection waiting for its next request after keepAliveTimeoutMs", async () => {
    const { port } = await listen(ok, { keepAliveTimeoutMs: 300 });
    const kept = connect(port);
    await kept.send(request("GET", "/", { host: "127.0.0.1" }));
    expect(await kept.until((c) => c.responses.length === 1)).toBe(true);
    expect(await kept.until((c) => c.closed)).toBe(true);
  });

  it("closes a connection without traffic after socketIdleTimeoutMs (a handler that never answers)", async () => {
    const { port } = await listen(() => new Promise<Response>(() => undefined), { socketIdleTimeoutMs: 300 });
    const waiting = connect(port);
    await waiting.send(request("GET", "/", { host: "127.0.0.1" }));
    expect(await waiting.until((c) => c.closed)).toBe(true);
  });

  it("keeps an event stream open past every request timeout while its heartbeats flow", async () => {
    const { s, port } = await glove(
      { events: { heartbeatMs: 100 } },
      { headersTimeoutMs: 300, requestTimeoutMs: 300, socketIdleTimeoutMs: 2000 },
    );
    const id = await s.conversation();
    const stream = connect(port);
    await stream.send(
      request("GET", `/conversations/${id}/events`, { host: "127.0.0.1", authorization: "Bearer alice" }),
    );
    // Ten heartbeats: a second and more, several request timeouts long.
    expect(await stream.until((c) => c.received.toString().split(": heartbeat").length > 10)).toBe(true);
    expect(stream.closed).toBe(false);
    s.kit.script.push({ text: "still here" });
    expect((await s.api(`/conversations/${id}/messages`, { body: { text: "hi" } })).status).toBe(202);
    expect(await stream.until((c) => c.received.toString().includes("event: turn_end"))).toBe(true);
    expect(stream.closed).toBe(false);
  });
});

describe("connection cap", () => {
  it("closes connections beyond maxConnections as they arrive, and serves again once one closes", async () => {
    const { port } = await listen(ok, { maxConnections: 3, keepAliveTimeoutMs: 60_000 });
    const open = [connect(port), connect(port), connect(port)];
    for (const c of open) {
      await c.send(request("GET", "/", { host: "127.0.0.1" }));
      expect(await c.until((x) => x.responses.length === 1)).toBe(true);
    }
    const refused = connect(port);
    await refused.send(request("GET", "/", { host: "127.0.0.1" }));
    expect(await refused.until((c) => c.closed)).toBe(true);
    expect(refused.responses).toEqual([]);
    open[0]!.destroy();
    // The server notices the close a moment later: try until a connection is served.
    let served = false;
    for (const deadline = Date.now() + 20_000; !served && Date.now() < deadline;) {
      const later = connect(port);
      await later.send(request("GET", "/", { host: "127.0.0.1" }));
      await later.until((c) => c.closed || c.responses.length === 1);
      served = later.responses[0]?.status === 200;
    }
    expect(served).toBe(true);
  });
});

describe("connection limit options", () => {
  it("refuses wrong values, and an idle timeout that would cut streams between heartbeats", async () => {
    await expect(listenNode(ok, { headersTimeoutMs: 0 })).rejects.toThrow(/headersTimeoutMs/);
    await expect(listenNode(ok, { requestTimeoutMs: 1.5 })).rejects.toThrow(ConfigurationError);
    await expect(listenNode(ok, { headersTimeoutMs: 2000, requestTimeoutMs: 1000 })).rejects.toThrow(
      /cannot exceed requestTimeoutMs/,
    );
    const { createGloveServer } = await import("glove-server");
    const server = createGloveServer({
      agents: {
        a: () => {
          throw new Error("unused");
        },
      },
      authenticate,
      store: memoryStorage(),
      events: { heartbeatMs: 1000 },
    });
    cleanup.push(() => server.close());
    await expect(server.listen({ socketIdleTimeoutMs: 1500 })).rejects.toThrow(/heartbeat/);
  });
});
