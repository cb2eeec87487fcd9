import type http from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { connectMcp, McpConnectError, McpTimeoutError, mountMcp, type McpCatalogueEntry } from "glove-mcp";
import { TestAdapter } from "./support/adapter.js";
import { scriptedGlove } from "./support/scripted-glove.js";
import { startRawServer, startSdkHttpServer } from "./support/sdk-http-server.js";

const entry = (url: string, id = "svc"): McpCatalogueEntry => ({
  id,
  name: "Service",
  description: "a test server",
  url,
});
const stops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const stop of stops) await stop();
});

/** Accepts every request and never answers: responses stay open until the server stops. */
const neverAnswer: http.RequestListener = (req) => {
  req.resume();
};

async function raw(handler: http.RequestListener) {
  const server = await startRawServer(handler);
  stops.push(() => server.stop());
  return server;
}

async function elapsed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work;
  return { value, ms: Date.now() - started };
}

// The upper bounds are loose on purpose: they tell our timeouts and aborts (hundreds of ms) from
// the 60 s bounds they cut short, not how fast the machine is, which load can slow a lot.
describe("connectMcp is bounded", () => {
  it("fails with McpTimeoutError within connectTimeoutMs when the server accepts and never answers", async () => {
    const server = await raw(neverAnswer);
    const { value: error, ms } = await elapsed(
      connectMcp(entry(server.url), { connectTimeoutMs: 400 }).catch((e: unknown) => e),
    );
    expect(McpTimeoutError.isInstance(error)).toBe(true);
    expect((error as McpTimeoutError).timeoutMs).toBe(400);
    expect((error as Error).message).toMatch(/within 400 ms/);
    expect(ms).toBeGreaterThanOrEqual(350);
    expect(ms).toBeLessThan(30_000);
  });

  it("bounds the legacy SSE fallback, whose stream never sends its endpoint event", async () => {
    // 404 to the POST is a spec'd reason to try SSE; the GET then opens an event stream that stays silent.
    const server = await raw((req, res) => {
      req.resume();
      if (req.method === "POST") return void res.writeHead(404).end();
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(": open\n\n");
    });
    const { value: error, ms } = await elapsed(
      connectMcp(entry(server.url), { connectTimeoutMs: 500 }).catch((e: unknown) => e),
    );
    expect(McpTimeoutError.isInstance(error)).toBe(true);
    expect(ms).toBeLessThan(30_000);
    expect(server.requests).toEqual(["POST /mcp", "GET /mcp"]);
  });

  it("does not fall back to SSE when a Streamable HTTP server answers 500", async () => {
    const server = await raw((req, res) => {
      req.resume();
      res.writeHead(500, { "content-type": "text/plain" }).end("boom");
    });
    const error = await connectMcp(entry(server.url), { connectTimeoutMs: 5_000 }).catch((e: unknown) => e);
    expect(McpConnectError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/streamable-http: .*500|streamable-http: .*boom/);
    expect((error as Error).message).not.toMatch(/sse: /);
    expect(server.requests.every((r) => r.startsWith("POST"))).toBe(true);
  });

  it("rejects with the caller's abort reason as soon as the signal fires", async () => {
    const server = await raw(neverAnswer);
    const controller = new AbortController();
    const reason = new Error("user went away");
    setTimeout(() => controller.abort(reason), 150);
    const { value: error, ms } = await elapsed(
      connectMcp(entry(server.url), { signal: controller.signal, connectTimeoutMs: 60_000 }).catch((e: unknown) => e),
    );
    expect(error).toBe(reason);
    expect(ms).toBeLessThan(30_000);
  });

  it("refuses timeouts that are not positive milliseconds before connecting", async () => {
    const server = await raw(neverAnswer);
    for (const [options, entryExtra, name] of [
      [{ connectTimeoutMs: 0 }, {}, "connectTimeoutMs"],
      [{}, { timeoutMs: Number.NaN }, "timeoutMs"],
      [{}, { maxTotalTimeoutMs: -5 }, "maxTotalTimeoutMs"],
    ] as const) {
      const error = await connectMcp({ ...entry(server.url), ...entryExtra }, options).catch((e: unknown) => e);
      expect(McpConnectError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain(name);
    }
    expect(server.requests).toEqual([]);
  });

  it("still connects to a real server well within the bound", async () => {
    const server = await startSdkHttpServer(() => {
      const mcp = new McpServer({ name: "ok", version: "1.0.0" });
      mcp.registerTool("ping", { description: "ping" }, () => ({ content: [{ type: "text", text: "pong" }] }));
      return mcp;
    });
    stops.push(() => server.stop());
    const connection = await connectMcp(entry(server.url), { connectTimeoutMs: 5_000 });
    try {
      expect(connection.transport).toBe("streamable-http");
      expect(connection.tools.map((t) => t.name)).toEqual(["ping"]);
    } finally {
      await connection.close();
    }
  });
});

describe("mountMcp and discovery are bounded", () => {
  it("mountMcp reports a hanging entry as failed within connectTimeoutMs, and honours an aborted signal", async () => {
    const server = await raw(neverAnswer);
    const adapter = new TestAdapter();
    adapter.tokens.set("hang", "t");
    adapter.active.add("hang");
    const { glove } = scriptedGlove([], { storeName: "m" });
    const logs: string[] = [];
    const { value: mount, ms } = await elapsed(
      mountMcp(glove, {
        adapter,
        entries: [entry(server.url, "hang")],
        connectTimeoutMs: 300,
        log: (m) => logs.push(m),
      }),
    );
    expect(ms).toBeLessThan(30_000);
    expect(mount.reloaded).toEqual([]);
    expect(mount.failed).toEqual([{ id: "hang", reason: expect.stringMatching(/within 300 ms/) }]);
    expect(logs).toHaveLength(1);
    await mount.unmount();

    const controller = new AbortController();
    controller.abort(new Error("shutting down"));
    const aborted = await mountMcp(glove, {
      adapter,
      entries: [entry(server.url, "hang")],
      signal: controller.signal,
      log: () => {},
    });
    expect(aborted.failed).toEqual([{ id: "hang", reason: "shutting down" }]);
    await aborted.unmount();
  });

  it("an aborted request stops the discovery subagent's activation instead of waiting for the server", async () => {
    const server = await raw(neverAnswer);
    const adapter = new TestAdapter();
    adapter.tokens.set("hang", "t");
    const { glove, results: toolResults } = scriptedGlove(
      [
        {
          toolCalls: [
            { name: "glove_invoke_subagent", input: { name: "discovermcp", prompt: "the service" }, id: "s" },
          ],
        },
        { toolCalls: [{ name: "mcp_activate", input: { id: "hang" }, id: "a" }] },
        { text: "done" },
        { text: "done" },
      ],
      { storeName: "d" },
    );
    const mount = await mountMcp(glove, { adapter, entries: [entry(server.url, "hang")], connectTimeoutMs: 60_000 });
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 300);
      const { ms } = await elapsed(glove.processRequest("go", controller.signal).catch((e: unknown) => e));
      // Without the signal reaching connectMcp, the activation would wait out its 60 s bound.
      expect(ms).toBeGreaterThanOrEqual(250);
      expect(ms).toBeLessThan(30_000);
      expect(server.requests).toContain("POST /mcp");
      expect(adapter.active.size).toBe(0);
      const results = await toolResults();
      expect(results.map((r) => r.tool_name)).not.toContain("hang__ping");
    } finally {
      await mount.unmount();
    }
  });
});
