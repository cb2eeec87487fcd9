import { describe, expect, it } from "vitest";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Displaymanager, Glove, MemoryStore, type PermissionPolicy, type PermissionStatus } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { bridgeMcpTool, bridgeMcpTools, connectMcp, mountMcp } from "glove-mcp";
import { TestAdapter } from "./support/adapter.js";
import { fileServer } from "./support/file-server.js";
import { scriptedGlove } from "./support/scripted-glove.js";
import { startSdkHttpServer } from "./support/sdk-http-server.js";

/** Tool calls the MCP server really ran, in order. */
const ran: string[] = [];

const server = fileServer("records server", () =>
  startSdkHttpServer(() => {
    const mcp = new McpServer({ name: "records", version: "1.0.0" });
    mcp.registerTool("delete_records", { description: "Deletes every record.", annotations: { destructiveHint: true } }, () => {
      ran.push("delete_records");
      return { content: [{ type: "text", text: "all records deleted" }] };
    });
    mcp.registerTool("list_records", { description: "Lists the records.", annotations: { readOnlyHint: true } }, () => {
      ran.push("list_records");
      return { content: [{ type: "text", text: "r1, r2" }] };
    });
    return mcp;
  }),
);

const entry = () => ({ id: "records", name: "Records", description: "a records store", url: server().url });

/** A serverMode Glove with the records server mounted, whose model calls both tools once. */
async function mounted(permissionPolicy?: PermissionPolicy) {
  ran.length = 0;
  const t = scriptedGlove(
    [
      {
        toolCalls: [
          { name: "records__delete_records", input: {}, id: "d" },
          { name: "records__list_records", input: {}, id: "l" },
        ],
      },
      { text: "done" },
    ],
    { serverMode: true, ...(permissionPolicy ? { permissionPolicy } : {}) },
  );
  const adapter = new TestAdapter();
  adapter.active.add("records");
  adapter.tokens.set("records", "");
  const mount = await mountMcp(t.glove, { adapter, entries: [entry()] });
  expect(mount.reloaded).toEqual(["records"]);
  return { ...t, mount };
}

async function statuses(results: () => Promise<Array<{ tool_name: string; result: { status: string; message?: string } }>>) {
  return Object.fromEntries((await results()).map((r) => [r.tool_name, r.result]));
}

describe("bridged MCP tools in serverMode (decision 19)", () => {
  it("a permissionPolicy decides for destructive tools: denied means refused, and read-only tools are not asked", async () => {
    const asked: string[] = [];
    const t = await mounted((name) => {
      asked.push(name);
      return "denied";
    });
    try {
      await t.glove.processRequest("Clean up");
      const results = await statuses(t.results);
      expect(asked).toEqual(["records__delete_records"]);
      expect(results["records__delete_records"]).toMatchObject({ status: "error", message: expect.stringMatching(/denied/) });
      expect(results["records__list_records"]).toMatchObject({ status: "success" });
      expect(ran).toEqual(["list_records"]);
    } finally {
      await t.mount.unmount();
    }
  });

  it('a policy answering "unset" refuses in serverMode (fail closed), saying how to allow it', async () => {
    const t = await mounted(() => "unset");
    try {
      await t.glove.processRequest("Clean up");
      const results = await statuses(t.results);
      expect(results["records__delete_records"]?.message).toMatch(/no UI to ask \(serverMode\).*"granted".*permissionPolicy/);
      expect(ran).toEqual(["list_records"]);
    } finally {
      await t.mount.unmount();
    }
  });

  it("a policy granting lets the destructive tool run", async () => {
    const t = await mounted(() => "granted");
    try {
      await t.glove.processRequest("Clean up");
      expect(ran.sort()).toEqual(["delete_records", "list_records"]);
    } finally {
      await t.mount.unmount();
    }
  });

  it("without a policy, serverMode runs every MCP tool without asking (the documented default)", async () => {
    const t = await mounted();
    try {
      await t.glove.processRequest("Clean up");
      const results = await statuses(t.results);
      expect(results["records__delete_records"]).toMatchObject({ status: "success" });
      expect(ran.sort()).toEqual(["delete_records", "list_records"]);
      expect(t.dm.stack).toHaveLength(0);
    } finally {
      await t.mount.unmount();
    }
  });

  it("the positional serverMode form still works: true behaves like the options form, false refuses without a policy", async () => {
    const connection = await connectMcp(entry(), { getAccessToken: async () => "" });
    try {
      const destructive = connection.tools.find((tool) => tool.name === "delete_records")!;
      const readOnly = connection.tools.find((tool) => tool.name === "list_records")!;
      expect(bridgeMcpTool(connection, destructive)).toMatchObject({ requiresPermission: true, serverModeWithoutPolicy: "allow" });
      expect(bridgeMcpTool(connection, destructive, true)).toMatchObject({ requiresPermission: true, serverModeWithoutPolicy: "allow" });
      expect(bridgeMcpTool(connection, destructive, false)).toMatchObject({ requiresPermission: true, serverModeWithoutPolicy: "deny" });
      expect(bridgeMcpTool(connection, readOnly, true).requiresPermission).toBe(false);

      const run = async (serverMode: boolean, policy?: () => PermissionStatus) => {
        ran.length = 0;
        const store = new MemoryStore("positional");
        let builder = new Glove({
          store,
          model: new ScriptedModel([{ toolCalls: [{ name: "records__delete_records", input: {} }] }, { text: "done" }]),
          displayManager: new Displaymanager(),
          systemPrompt: "p",
          serverMode: true,
          compaction_config: { compaction_instructions: "s" },
          ...(policy ? { permissionPolicy: policy } : {}),
        });
        for (const fold of bridgeMcpTools(connection, serverMode)) builder = builder.fold(fold);
        await builder.build().processRequest("go");
        return [...ran];
      };
      expect(await run(true)).toEqual(["delete_records"]);
      expect(await run(true, () => "denied")).toEqual([]);
      expect(await run(false)).toEqual([]);
    } finally {
      await connection.close();
    }
  });
});
