/**
 * The demo as `npm start` runs it (both published app servers over stdio, the offline script),
 * driven over HTTP: once the user allows the agent's call, the app is in the conversation's snapshot; the
 * app-tool route answers hostile requests with 4xx, never running a tool.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../test-support/timeouts.js";
import { startMcpAppsDemo, type McpAppsDemo } from "../src/app.js";

let demo: McpAppsDemo;

interface WireSlot {
  id: string;
  renderer: string;
  status: string;
  input: unknown;
}

beforeAll(async () => {
  demo = await startMcpAppsDemo({ port: 0, dataDir: mkdtempSync(join(tmpdir(), "glove-mcp-apps-")) });
}, SLOW_WORK_MS);

afterAll(async () => {
  await demo?.close();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${demo.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

describe("the MCP Apps demo", () => {
  it("connects both published servers over stdio", () => {
    expect([...demo.connections.keys()]).toEqual(["basic", "budget"]);
    expect(demo.connections.get("basic")!.tools.map((t) => t.name)).toEqual(["get-time"]);
    expect(demo.connections.get("budget")!.tools.map((t) => t.name)).toEqual(["get-budget-data"]);
  });

  it("puts the app's slot in the conversation's snapshot once the user allowed the call", async () => {
    const { id } = (await (await post("/api/conversations", { agent: "apps" })).json()) as { id: string };
    expect((await post(`/api/conversations/${id}/messages`, { text: "What is the time?" })).status).toBeLessThan(300);
    const slots = async () =>
      ((await (await fetch(`${demo.url}/api/conversations/${id}`)).json()) as { slots: WireSlot[] }).slots;
    let prompt: WireSlot | undefined;
    await expect
      .poll(
        async () =>
          (prompt = (await slots()).find((s) => s.renderer === "permission_request" && s.status === "pending")),
        { timeout: PROMPT_WAIT_MS },
      )
      .toBeDefined();
    expect((await post(`/api/conversations/${id}/slots/${prompt!.id}`, { resolve: true })).status).toBeLessThan(300);
    let app: WireSlot | undefined;
    await expect
      .poll(async () => (app = (await slots()).find((s) => s.renderer === "mcp_app")), { timeout: PROMPT_WAIT_MS })
      .toBeDefined();
    const input = app!.input as {
      server: { id: string };
      resource: { uri: string; html: string };
      toolResult: { content: Array<{ text: string }> };
    };
    expect(input.server.id).toBe("basic");
    expect(input.resource.uri).toBe("ui://get-time/mcp-app.html");
    expect(input.resource.html).toMatch(/<html/i);
    expect(Number.isNaN(Date.parse(input.toolResult.content[0]!.text))).toBe(false);
  });

  it("answers hostile requests to the app-tool route with 4xx", async () => {
    const route = "/api/mcp-apps/tools-call";
    const created = (await (await post("/api/conversations", { agent: "apps" })).json()) as { id: string };
    const statuses = [
      (await fetch(`${demo.url}${route}`)).status,
      (await post(route, "{not json")).status,
      (await post(route, { conversationId: 1, server: "basic", name: "get-time" })).status,
      (await post(route, { conversationId: "nope", server: "basic", name: "get-time" })).status,
      (
        await post(
          route,
          { conversationId: created.id, server: "basic", name: "get-time" },
          { origin: "https://evil.example" },
        )
      ).status,
      (await post(route, "x".repeat(300 * 1024))).status,
    ];
    expect(statuses).toEqual([405, 400, 400, 404, 403, 400]);
  });
});
