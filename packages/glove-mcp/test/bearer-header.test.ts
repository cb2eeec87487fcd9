import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { connectMcp, mountMcp, type McpCatalogueEntry } from "glove-mcp";
import { TestAdapter } from "./support/adapter.js";
import { scriptedGlove } from "./support/scripted-glove.js";
import { startSdkHttpServer, type SdkHttpServer } from "./support/sdk-http-server.js";

let server: SdkHttpServer;
beforeAll(async () => {
  server = await startSdkHttpServer(() => {
    const mcp = new McpServer({ name: "open", version: "1.0.0" });
    mcp.registerTool("ping", { description: "ping" }, () => ({ content: [{ type: "text", text: "pong" }] }));
    return mcp;
  });
});
afterAll(async () => {
  await server?.stop();
});

const entry = (): McpCatalogueEntry => ({ id: "open", name: "Open", description: "no auth", url: server.url });

async function headersOf(run: () => Promise<void>): Promise<Array<string | undefined>> {
  const from = server.requests.length;
  await run();
  return server.requests.slice(from).map((r) => r.authorization);
}

describe("Authorization header", () => {
  it("is sent only when there is a token", async () => {
    for (const token of [undefined, null, ""]) {
      const sent = await headersOf(async () => {
        const connection = await connectMcp(entry(), { getAccessToken: async () => token });
        await connection.client.callTool({ name: "ping" });
        await connection.close();
      });
      expect(sent.length).toBeGreaterThanOrEqual(3);
      expect(sent.every((h) => h === undefined)).toBe(true);
    }
    const withToken = await headersOf(async () => {
      const connection = await connectMcp(entry(), { getAccessToken: async () => "tok" });
      await connection.close();
    });
    expect(withToken.length).toBeGreaterThan(0);
    expect(withToken.every((h) => h === "Bearer tok")).toBe(true);
  });

  it("mountMcp sends none for an adapter that has no token for an open server", async () => {
    const adapter = new TestAdapter();
    adapter.active.add("open");
    adapter.tokens.set("open", "");
    const { glove } = scriptedGlove([], { storeName: "b" });
    const sent = await headersOf(async () => {
      const mount = await mountMcp(glove, { adapter, entries: [entry()] });
      expect(mount.reloaded).toEqual(["open"]);
      await mount.unmount();
    });
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((h) => h === undefined)).toBe(true);
  });
});
