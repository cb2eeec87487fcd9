import { afterEach, describe, expect, it } from "vitest";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { mountMcp, type McpMount } from "glove-mcp";
import { TestAdapter } from "../support/adapter.js";
import { scriptedGlove } from "../support/scripted-glove.js";
import { startSdkHttpServer, type SdkHttpServer } from "../support/sdk-http-server.js";

// An SDK-built server whose prompt list changes after the client connected: registering a prompt on
// a connected McpServer sends notifications/prompts/list_changed.
let server: SdkHttpServer | undefined;
let mount: McpMount | undefined;
afterEach(async () => {
  await mount?.unmount();
  await server?.stop();
  mount = undefined;
  server = undefined;
});

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 25));
}

describe("prompt list changes after connect", () => {
  it("a prompt the server adds later becomes a skill without reconnecting", async () => {
    server = await startSdkHttpServer(() => {
      const mcp = new McpServer({ name: "notes", version: "1.0.0" });
      mcp.registerTool("count", { description: "counts notes" }, () => ({ content: [{ type: "text", text: "3" }] }));
      mcp.registerPrompt("first", { description: "the first prompt" }, () => ({
        messages: [{ role: "user", content: { type: "text", text: "first prompt text" } }],
      }));
      return mcp;
    });
    const { glove, store } = scriptedGlove(
      Array.from({ length: 200 }, () => ({ text: "ok" })),
      { storeName: "prompts" },
    );
    const adapter = new TestAdapter();
    adapter.active.add("notes");
    adapter.tokens.set("notes", "unused"); // an open server: the token is sent and ignored
    mount = await mountMcp(glove, {
      adapter,
      entries: [{ id: "notes", name: "Notes", description: "d", url: server.url }],
      clientFeatures: { prompts: true },
      log: () => undefined,
    });
    expect(mount.failed.map((f) => f.reason)).toEqual([]);

    server.servers[0]!.registerPrompt("later", { description: "added after connect" }, () => ({
      messages: [{ role: "user", content: { type: "text", text: "later prompt text" } }],
    }));
    // The skill appears once the client has re-read the list (a skill-less "/notes__later" is plain text).
    const injections = async () => (await store.getMessages()).filter((m) => m.is_skill_injection).map((m) => m.text);
    await until(async () => server!.requests.filter((r) => r.rpc === "prompts/list").length >= 2);
    await until(async () => {
      await glove.processRequest("/notes__later");
      return (await injections()).length > 0;
    });
    expect(await injections()).toEqual(["later prompt text"]);
  });
});
