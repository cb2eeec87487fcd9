import { afterEach, describe, expect, it } from "vitest";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import type { Slot } from "glove-core";
import {
  mountMcp,
  MCP_URL_ELICITATION_RENDERER,
  type McpClientFeatureOptions,
  type McpMount,
  type McpUrlElicitationInput,
} from "glove-mcp";
import { TestAdapter } from "../support/adapter.js";
import { scriptedGlove } from "../support/scripted-glove.js";
import { startSdkHttpServer, type SdkHttpServer } from "../support/sdk-http-server.js";

// An SDK-built server whose `link_account` tool asks, in URL mode, to send the user to a page of
// its own, and answers with what the client said. The user is a display-stack listener.
let server: SdkHttpServer | undefined;
let mount: McpMount | undefined;
afterEach(async () => {
  await mount?.unmount();
  await server?.stop();
  mount = undefined;
  server = undefined;
});

async function setUp(url: string, clientFeatures: McpClientFeatureOptions, serverMode = false) {
  const capabilities: Array<ClientCapabilities | undefined> = [];
  server = await startSdkHttpServer(() => {
    const mcp = new McpServer({ name: "bank", version: "1.0.0" });
    mcp.registerTool("link_account", { description: "links the user's bank account" }, async () => {
      capabilities.push(mcp.server.getClientCapabilities());
      const result = await mcp.server.elicitInput({
        mode: "url",
        message: "Sign in at your bank to link the account.",
        url,
        elicitationId: "link-1",
      });
      return { content: [{ type: "text", text: result.action }] };
    });
    return mcp;
  });
  const agent = scriptedGlove([{ toolCalls: [{ name: "bank__link_account", input: {}, id: "l" }] }, { text: "done" }], {
    storeName: "url",
    serverMode,
  });
  const adapter = new TestAdapter();
  adapter.active.add("bank");
  adapter.tokens.set("bank", "unused"); // an open server: the token is sent and ignored
  const shown: Array<Slot<unknown>> = [];
  agent.dm.subscribe((stack) => {
    for (const slot of stack) {
      if (slot.renderer === "permission_request") agent.dm.resolve(slot.id, true);
      if (slot.renderer === MCP_URL_ELICITATION_RENDERER && !shown.includes(slot)) {
        shown.push(slot);
        setTimeout(() => agent.dm.resolve(slot.id, { action: "accept" }), 0);
      }
    }
  });
  mount = await mountMcp(agent.glove, {
    adapter,
    entries: [{ id: "bank", name: "Bank", description: "d", url: server.url }],
    clientFeatures,
    log: () => undefined,
  });
  expect(mount.failed.map((f) => f.reason)).toEqual([]);
  await agent.glove.processRequest("Link my account.");
  const [result] = await agent.results();
  return { result: result!.result, shown, capabilities };
}

describe("URL-mode elicitation", () => {
  it("declared with url: true; the user sees the server's link and message and accepts", async () => {
    const { result, shown, capabilities } = await setUp("https://bank.example/link?session=abc", {
      elicitation: { url: true },
    });
    expect(capabilities[0]?.elicitation).toEqual({ form: {}, url: {} });
    expect(shown.map((s) => s.input)).toEqual([
      {
        serverId: "bank",
        message: "Sign in at your bank to link the account.",
        url: "https://bank.example/link?session=abc",
        elicitationId: "link-1",
      } satisfies McpUrlElicitationInput,
    ]);
    expect(result).toMatchObject({ status: "success", data: "accept" });
  });

  it("a link that is not a web page (javascript:) is declined without showing it", async () => {
    const { result, shown } = await setUp("javascript:alert(document.cookie)", { elicitation: { url: true } });
    expect(shown).toEqual([]);
    expect(result).toMatchObject({ status: "success", data: "decline" });
  });

  it("not declared by default, and declined in serverMode (no one to open the page)", async () => {
    const plain = await setUp("https://bank.example/link", { elicitation: true });
    expect(plain.capabilities[0]?.elicitation).toEqual({ form: {} });
    await mount?.unmount();
    await server?.stop();
    const headless = await setUp("https://bank.example/link", { elicitation: { url: true } }, true);
    expect(headless.shown).toEqual([]);
    expect(headless.result).toMatchObject({ status: "success", data: "decline" });
  });
});
