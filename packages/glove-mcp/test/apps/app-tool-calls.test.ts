/**
 * What an app may do on its server: which tools the model is offered, which the app may call,
 * and that an app's calls meet the Glove's permission check (policy, stored answer, prompt).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Displaymanager,
  Glove,
  MemoryStore,
  PERMISSION_REQUEST_RENDERER,
  type PermissionRequestInput,
} from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import {
  bridgeMcpTools,
  callAppTool,
  connectMcp,
  glovePermission,
  McpAppError,
  policyPermission,
  type McpConnection,
} from "glove-mcp";
import { startSdkHttpServer, type SdkHttpServer } from "../support/sdk-http-server.js";
import { BOARD_HTML, buildFixtureAppServer, type FixtureCalls } from "./fixture-app-server.js";
import { runWithApps } from "./harness.js";

const seen: FixtureCalls = { calls: [] };
let server: SdkHttpServer;
let connection: McpConnection;

beforeAll(async () => {
  server = await startSdkHttpServer(() => buildFixtureAppServer(seen));
  connection = await connectMcp({ id: "fixture", name: "Fixture", description: "apps", url: server.url });
});

afterAll(async () => {
  await connection?.close();
  await server?.stop();
});

const granted = policyPermission(() => "granted");

function refusal(error: unknown): string | undefined {
  return McpAppError.isInstance(error) ? error.reason : undefined;
}

describe("capability negotiation", () => {
  it("announces the MCP Apps extension with the mcp-app HTML type", async () => {
    const result = await connection.client.callTool({ name: "host_support", arguments: {} });
    const text = (result.content as Array<{ text: string }>)[0]!.text;
    expect(JSON.parse(text)).toEqual({ "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } });
  });
});

describe("tool visibility", () => {
  it("offers the model every tool but the app-only ones", () => {
    expect(
      bridgeMcpTools(connection)
        .map((fold) => fold.name)
        .sort(),
    ).toEqual(["fixture__broken", "fixture__host_support", "fixture__secret", "fixture__show_board"]);
  });

  it("lets the app call app-visible tools only, on its own server", async () => {
    await expect(callAppTool(connection, { name: "secret" }, { permission: granted })).rejects.toSatisfy(
      (e) => refusal(e) === "not_app_visible",
    );
    await expect(callAppTool(connection, { name: "nope" }, { permission: granted })).rejects.toSatisfy(
      (e) => refusal(e) === "unknown_tool",
    );
    await expect(
      callAppTool(connection, { name: "refresh", arguments: [1] }, { permission: granted }),
    ).rejects.toSatisfy((e) => refusal(e) === "invalid_arguments");
    expect(seen.calls.filter((c) => c.tool === "secret")).toHaveLength(0);
    const result = await callAppTool(connection, { name: "refresh", arguments: { page: 2 } }, { permission: granted });
    expect(result.content).toEqual([{ type: "text", text: "refreshed 2" }]);
  });
});

describe("the app resource", () => {
  it("decodes a base64 resource and keeps only well-formed CSP and permission metadata", async () => {
    const run = await runWithApps(connection, [
      { toolCalls: [{ name: "fixture__show_board", input: { title: "Q3" }, id: "s1" }] },
      { text: "done" },
    ]);
    expect(run.apps).toHaveLength(1);
    const { resource, toolInput, toolResult } = run.apps[0]!.input;
    expect(resource.html).toBe(BOARD_HTML);
    expect(resource.csp).toEqual({
      connectDomains: ["https://api.example.com"],
      resourceDomains: ["https://cdn.example.com"],
    });
    expect(resource.permissions).toEqual({ clipboardWrite: {} });
    expect(resource.prefersBorder).toBe(true);
    expect(toolInput).toEqual({ title: "Q3" });
    expect(toolResult.structuredContent).toEqual({ title: "Q3", cards: 3 });
  });

  it("a resource that is not mcp-app HTML shows nothing, and the call's result stands", async () => {
    const run = await runWithApps(connection, [
      { toolCalls: [{ name: "fixture__broken", input: {}, id: "x1" }] },
      { text: "done" },
    ]);
    expect(run.results[0]!.result).toMatchObject({ status: "success", data: "broken ran" });
    expect(run.apps).toHaveLength(0);
  });
});

describe("an app's calls meet the Glove's permission check", () => {
  it("a policy that denies stops the call before the server sees it", async () => {
    const before = seen.calls.length;
    const asked: string[] = [];
    const denied = policyPermission((name) => {
      asked.push(name);
      return "denied";
    });
    await expect(callAppTool(connection, { name: "refresh" }, { permission: denied })).rejects.toSatisfy(
      (e) => refusal(e) === "denied",
    );
    expect(asked).toEqual(["fixture__refresh"]);
    expect(seen.calls.length).toBe(before);
  });

  it("a read-only tool runs without asking", async () => {
    const denied = policyPermission(() => "denied");
    const result = await callAppTool(connection, { name: "peek" }, { permission: denied });
    expect(result.content).toEqual([{ type: "text", text: "peeked" }]);
  });

  it("a serverMode Glove's policy decides without a prompt, a stored answer overrides", async () => {
    const store = new MemoryStore("stored");
    await store.setPermission?.("fixture__refresh", "denied");
    const gate = policyPermission(() => "granted", store);
    await expect(callAppTool(connection, { name: "refresh" }, { permission: gate })).rejects.toSatisfy(
      (e) => refusal(e) === "denied",
    );
  });

  it("a Glove with a UI asks the user through its display: allowed runs, declined does not", async () => {
    const display = new Displaymanager();
    const glove = new Glove({
      store: new MemoryStore("ui"),
      model: new ScriptedModel([]),
      displayManager: display,
      systemPrompt: "p",
      compaction_config: { compaction_instructions: "s" },
    }).build();
    const prompts: PermissionRequestInput[] = [];
    let answer = true;
    display.subscribe((stack) => {
      for (const slot of stack) {
        if (slot.renderer !== PERMISSION_REQUEST_RENDERER) continue;
        prompts.push(slot.input as PermissionRequestInput);
        display.resolve(slot.id, answer);
      }
    });
    const allowed = await callAppTool(
      connection,
      { name: "refresh", arguments: { page: 7 } },
      { permission: glovePermission(glove) },
    );
    expect(allowed.content).toEqual([{ type: "text", text: "refreshed 7" }]);
    expect(prompts).toEqual([{ tool_name: "fixture__refresh", input: { page: 7 } }]);
    answer = false;
    const before = seen.calls.length;
    await expect(
      callAppTool(connection, { name: "refresh", arguments: { page: 8 } }, { permission: glovePermission(glove) }),
    ).rejects.toSatisfy((e) => refusal(e) === "denied");
    expect(prompts).toHaveLength(2);
    expect(seen.calls.length).toBe(before);
  });
});
