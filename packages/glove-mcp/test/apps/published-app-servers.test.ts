/**
 * The published MCP Apps examples as a user installs them: a bridged call of a tool with an app
 * pushes an `mcp_app` slot carrying the app's HTML, its metadata, the call's input and result —
 * over stdio (server-basic-react) and Streamable HTTP (server-budget-allocator).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectMcp, type McpConnection } from "glove-mcp";
import type { RunningServer } from "../support/servers.js";
import { startAppServerHttp, stdioAppEntry } from "./app-servers.js";
import { runWithApps } from "./harness.js";

let basic: McpConnection;
let budgetServer: RunningServer;
let budget: McpConnection;

beforeAll(async () => {
  basic = await connectMcp(stdioAppEntry("server-basic-react", "basic"));
  budgetServer = await startAppServerHttp("server-budget-allocator");
  budget = await connectMcp({ id: "budget", name: "Budget allocator", description: "budgets", url: budgetServer.url });
});

afterAll(async () => {
  await basic?.close();
  await budget?.close();
  await budgetServer?.stop();
});

describe("published MCP Apps servers", () => {
  it("server-basic-react over stdio: get-time shows its app with the call's input and result", async () => {
    expect(basic.transport).toBe("stdio");
    const run = await runWithApps(basic, [
      { toolCalls: [{ name: "basic__get-time", input: {}, id: "t1" }] },
      { text: "done" },
    ]);
    const result = run.results[0]!.result;
    expect(result.status).toBe("success");
    expect(run.apps).toHaveLength(1);
    const app = run.apps[0]!;
    expect(app.toolCallId).toBe("t1");
    expect(app.input.server).toEqual({ id: "basic", name: "server-basic-react" });
    expect(app.input.tool).toMatchObject({
      name: "get-time",
      bridgedName: "basic__get-time",
      inputSchema: { type: "object" },
    });
    expect(app.input.resource.uri).toBe("ui://get-time/mcp-app.html");
    expect(app.input.resource.mimeType).toBe("text/html;profile=mcp-app");
    expect(app.input.resource.html).toMatch(/<html/i);
    expect(app.input.toolInput).toEqual({});
    const text = (app.input.toolResult.content[0] as { type: string; text: string }).text;
    // The same result the model read: the server's ISO time.
    expect(Number.isNaN(Date.parse(text))).toBe(false);
    expect(result.data).toBe(text);
  });

  it("server-budget-allocator over HTTP: the slot carries the structured result for the app", async () => {
    expect(budget.transport).toBe("streamable-http");
    const run = await runWithApps(budget, [
      { toolCalls: [{ name: "budget__get-budget-data", input: {}, id: "b1" }] },
      { text: "done" },
    ]);
    expect(run.results[0]!.result.status).toBe("success");
    expect(run.apps).toHaveLength(1);
    const input = run.apps[0]!.input;
    expect(input.resource.uri).toBe("ui://budget-allocator/mcp-app.html");
    expect(input.resource.html).toMatch(/<html/i);
    expect(input.toolResult.structuredContent).toMatchObject({ config: { defaultBudget: 100000 } });
  });

  it("reads an app's resource once per connection", async () => {
    const before = await runWithApps(basic, [
      {
        toolCalls: [
          { name: "basic__get-time", input: {}, id: "a" },
          { name: "basic__get-time", input: {}, id: "b" },
        ],
      },
      { text: "done" },
    ]);
    expect(before.apps).toHaveLength(2);
    expect(before.apps[0]!.input.resource).toBe(before.apps[1]!.input.resource);
  });
});
