import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Displaymanager, Glove, MemoryStore, type ToolResult } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { bridgeMcpTools, connectMcp, McpAuthError, McpConnectError, type McpCatalogueEntry } from "glove-mcp";
import { TestAdapter } from "./support/adapter.js";
import { startAuthProxy } from "./support/auth-proxy.js";
import { startEverything, type RunningServer } from "./support/servers.js";

const entry = (url: string): McpCatalogueEntry => ({ id: "everything", name: "Everything", description: "test", url });

describe("legacy SSE fallback", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startEverything("sse");
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("falls back to SSE when the server does not speak Streamable HTTP, and calls tools over it", async () => {
    expect(server.host).toBe("127.0.0.1");
    const adapter = new TestAdapter();
    adapter.tokens.set("everything", "t");
    const connection = await connectMcp(entry(server.url), { getAccessToken: (id) => adapter.getAccessToken(id) });
    try {
      expect(connection.transport).toBe("sse");
      expect(connection.tools.map((t) => t.name)).toContain("echo");
      const store = new MemoryStore("sse");
      let builder = new Glove({
        store,
        model: new ScriptedModel([
          { toolCalls: [{ name: "everything__echo", input: { message: "over sse" }, id: "c1" }] },
          { text: "ok" },
        ]),
        displayManager: new Displaymanager(),
        systemPrompt: "p",
        serverMode: true,
        compaction_config: { compaction_instructions: "s" },
      });
      for (const fold of bridgeMcpTools(connection, true)) builder = builder.fold(fold);
      await builder.build().processRequest("go");
      const [result] = (await store.getMessages()).flatMap((m): ToolResult[] => m.tool_results ?? []);
      expect(result!.result).toMatchObject({ status: "success" });
      expect(result!.result.data).toContain("over sse");
    } finally {
      await connection.close();
    }
  });
});

describe("bearer tokens", () => {
  let server: RunningServer;
  let proxy: Awaited<ReturnType<typeof startAuthProxy>>;
  beforeAll(async () => {
    server = await startEverything("streamableHttp");
    proxy = await startAuthProxy(new URL(server.url), "token-1");
  });
  afterAll(async () => {
    await proxy?.stop();
    await server?.stop();
  });

  it("sends getAccessToken's token, maps an expired token to auth_expired, and reconnects with a fresh one", async () => {
    const adapter = new TestAdapter();
    adapter.tokens.set("everything", "token-1");
    const getAccessToken = (id: string) => adapter.getAccessToken(id);
    const connection = await connectMcp(entry(proxy.url), { getAccessToken });
    expect(adapter.tokenRequests).toEqual(["everything"]);
    const echo = bridgeMcpTools(connection, true).find((f) => f.name === "everything__echo")!;
    const display = new Displaymanager();
    try {
      const ok = await echo.do({ message: "hi" }, display, undefined as never);
      expect(ok).toMatchObject({ status: "success" });

      proxy.rotate("token-2");
      const expired = await echo.do({ message: "hi" }, display, undefined as never);
      expect(expired).toEqual({ status: "error", message: "auth_expired", data: null });

      // The app stores a refreshed token: the live connection re-reads it on the next 401.
      adapter.tokens.set("everything", "token-2");
      expect(await echo.do({ message: "refreshed" }, display, undefined as never)).toMatchObject({
        status: "success",
        data: "Echo: refreshed",
      });
    } finally {
      await connection.close().catch(() => undefined);
    }

    // A refused token fails the connection without falling back to SSE.
    adapter.tokens.set("everything", "token-1");
    const refused = await connectMcp(entry(proxy.url), { getAccessToken }).catch((e: unknown) => e);
    expect(McpAuthError.isInstance(refused)).toBe(true);

    adapter.tokens.set("everything", "token-2");
    const fresh = await connectMcp(entry(proxy.url), { getAccessToken });
    try {
      const again = bridgeMcpTools(fresh, true).find((f) => f.name === "everything__echo")!;
      expect(await again.do({ message: "back" }, display, undefined as never)).toMatchObject({ status: "success" });
    } finally {
      await fresh.close();
    }
  });

  it("names the transport it tried when nothing answers, and does not fall back to SSE on a network error", async () => {
    const error = await connectMcp(entry("http://127.0.0.1:9/mcp")).catch((e: unknown) => e);
    expect(McpConnectError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/streamable-http: /);
    expect((error as Error).message).not.toMatch(/sse: /);
  });

  it("fails the connection when getAccessToken throws", async () => {
    const adapter = new TestAdapter();
    await expect(connectMcp(entry(proxy.url), { getAccessToken: (id) => adapter.getAccessToken(id) })).rejects.toThrow(
      /No token/,
    );
  });
});
