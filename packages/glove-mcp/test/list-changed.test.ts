import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpServer, type RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { mountMcp, type McpMount } from "glove-mcp";
import { TestAdapter } from "./support/adapter.js";
import { scriptedGlove } from "./support/scripted-glove.js";
import { startSdkHttpServer, type SdkHttpServer } from "./support/sdk-http-server.js";

let server: SdkHttpServer;
const registered = new Map<string, RegisteredTool>();

beforeAll(async () => {
  server = await startSdkHttpServer(() => {
    const mcp = new McpServer({ name: "dynamic", version: "1.0.0" });
    registered.set(
      "alpha",
      mcp.registerTool("alpha", { description: "The first tool" }, () => ({
        content: [{ type: "text", text: "alpha ran" }],
      })),
    );
    return mcp;
  });
});
afterAll(async () => {
  await server?.stop();
});

async function until(check: () => boolean, what: string): Promise<void> {
  const giveUp = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > giveUp) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("tools/list_changed", () => {
  it("adds tools the server registers at run time to the running Glove and removes the ones it drops", async () => {
    const { glove, model, results: toolResults } = scriptedGlove([], { storeName: "dyn" });
    const adapter = new TestAdapter();
    adapter.active.add("dyn");
    adapter.tokens.set("dyn", "");
    let mount: McpMount | undefined;
    try {
      mount = await mountMcp(glove, {
        adapter,
        entries: [{ id: "dyn", name: "Dynamic", description: "tools that come and go", url: server.url }],
      });
      expect(mount.reloaded).toEqual(["dyn"]);
      expect(mount.session.toolNames("dyn")).toEqual(["dyn__alpha"]);

      const mcp = server.servers[0]!;
      mcp.registerTool("beta", { description: "Added later", inputSchema: { word: z.string() } }, ({ word }) => ({
        content: [{ type: "text", text: `beta says ${word}` }],
      }));
      await until(() => mount!.session.toolNames("dyn").includes("dyn__beta"), "dyn__beta");

      registered.get("alpha")!.remove();
      await until(() => !mount!.session.toolNames("dyn").includes("dyn__alpha"), "dyn__alpha to go");
      expect(mount.session.toolNames("dyn")).toEqual(["dyn__beta"]);
      expect(mount.session.connection("dyn")!.tools.map((t) => t.name)).toEqual(["beta"]);

      model.push(
        {
          toolCalls: [
            { name: "dyn__beta", input: { word: "hi" }, id: "b" },
            { name: "dyn__alpha", input: {}, id: "a" },
          ],
        },
        { text: "done" },
      );
      await glove.processRequest("use the tools");
      const results = await toolResults();
      expect(results.find((r) => r.tool_name === "dyn__beta")!.result).toMatchObject({
        status: "success",
        data: "beta says hi",
      });
      expect(results.find((r) => r.tool_name === "dyn__alpha")!.result.status).toBe("error");
    } finally {
      await mount?.unmount();
    }
  });
});
