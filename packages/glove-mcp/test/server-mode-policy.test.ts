import { describe, expect, it } from "vitest";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { PermissionPolicy, PermissionStatus } from "glove-core";
import { bridgeMcpTool, bridgeMcpTools, connectMcp, mountMcp } from "glove-mcp";
import { TestAdapter } from "./support/adapter.js";
import { fileServer } from "./support/file-server.js";
import { scriptedGlove } from "./support/scripted-glove.js";
import { startSdkHttpServer } from "./support/sdk-http-server.js";

/** Tool calls the MCP server really ran. */
const ran: string[] = [];

const server = fileServer("records server", () =>
  startSdkHttpServer(() => {
    const mcp = new McpServer({ name: "records", version: "1.0.0" });
    mcp.registerTool(
      "delete_records",
      { description: "Deletes every record.", annotations: { destructiveHint: true } },
      () => {
        ran.push("delete_records");
        return { content: [{ type: "text", text: "all records deleted" }] };
      },
    );
    mcp.registerTool("list_records", { description: "Lists the records.", annotations: { readOnlyHint: true } }, () => {
      ran.push("list_records");
      return { content: [{ type: "text", text: "r1, r2" }] };
    });
    return mcp;
  }),
);

const entry = () => ({ id: "records", name: "Records", description: "a records store", url: server().url });

const bothTools = [
  {
    toolCalls: [
      { name: "records__delete_records", input: {}, id: "d" },
      { name: "records__list_records", input: {}, id: "l" },
    ],
  },
  { text: "done" },
];

/**
 * One turn of a serverMode Glove with the records server mounted, whose model calls both tools:
 * the results by tool name, what the server ran, and what is left on the display stack.
 */
async function turn(permissionPolicy?: PermissionPolicy) {
  ran.length = 0;
  const t = scriptedGlove(bothTools, { serverMode: true, ...(permissionPolicy ? { permissionPolicy } : {}) });
  const adapter = new TestAdapter();
  adapter.active.add("records");
  adapter.tokens.set("records", "");
  const mount = await mountMcp(t.glove, { adapter, entries: [entry()] });
  try {
    expect(mount.reloaded).toEqual(["records"]);
    await t.glove.processRequest("Clean up");
    const results = Object.fromEntries((await t.results()).map((r) => [r.tool_name, r.result]));
    return { results, ran: [...ran].sort(), stack: t.dm.stack };
  } finally {
    await mount.unmount();
  }
}

describe("bridged MCP tools in serverMode (decision 19)", () => {
  it("a permissionPolicy decides for destructive tools: denied means refused, and read-only tools are not asked", async () => {
    const asked: string[] = [];
    const t = await turn((name) => {
      asked.push(name);
      return "denied";
    });
    expect(asked).toEqual(["records__delete_records"]);
    expect(t.results["records__delete_records"]).toMatchObject({
      status: "error",
      message: expect.stringMatching(/denied/),
    });
    expect(t.results["records__list_records"]).toMatchObject({ status: "success" });
    expect(t.ran).toEqual(["list_records"]);
  });

  it('a policy answering "unset" refuses in serverMode (fail closed), saying how to allow it', async () => {
    const t = await turn(() => "unset");
    expect(t.results["records__delete_records"]?.message).toMatch(
      /no UI to ask \(serverMode\).*"granted".*permissionPolicy/,
    );
    expect(t.ran).toEqual(["list_records"]);
  });

  it("a policy granting lets the destructive tool run", async () => {
    expect((await turn(() => "granted")).ran).toEqual(["delete_records", "list_records"]);
  });

  it("without a policy, serverMode runs every MCP tool without asking (the documented default)", async () => {
    const t = await turn();
    expect(t.results["records__delete_records"]).toMatchObject({ status: "success" });
    expect(t.ran).toEqual(["delete_records", "list_records"]);
    expect(t.stack).toHaveLength(0);
  });

  it("the positional serverMode form still works: true behaves like the options form, false refuses without a policy", async () => {
    const connection = await connectMcp(entry(), { getAccessToken: async () => "" });
    try {
      const destructive = connection.tools.find((tool) => tool.name === "delete_records")!;
      const readOnly = connection.tools.find((tool) => tool.name === "list_records")!;
      expect(bridgeMcpTool(connection, destructive)).toMatchObject({
        requiresPermission: true,
        serverModeWithoutPolicy: "allow",
      });
      expect(bridgeMcpTool(connection, destructive, true)).toMatchObject({
        requiresPermission: true,
        serverModeWithoutPolicy: "allow",
      });
      expect(bridgeMcpTool(connection, destructive, false)).toMatchObject({
        requiresPermission: true,
        serverModeWithoutPolicy: "deny",
      });
      expect(bridgeMcpTool(connection, readOnly, true).requiresPermission).toBe(false);

      const run = async (serverMode: boolean, permissionPolicy?: () => PermissionStatus) => {
        ran.length = 0;
        const t = scriptedGlove([{ toolCalls: [{ name: "records__delete_records", input: {} }] }, { text: "done" }], {
          serverMode: true,
          ...(permissionPolicy ? { permissionPolicy } : {}),
        });
        for (const fold of bridgeMcpTools(connection, serverMode)) t.glove.fold(fold);
        await t.glove.processRequest("go");
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
