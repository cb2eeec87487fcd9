import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Displaymanager, Glove, MemoryStore, type GloveConfig, type Message, type ToolResult } from "glove-core";
import { ScriptedModel, type ScriptedStep } from "glove-core/testing";
import { bridgeMcpTool, bridgeMcpTools, connectMcp, type McpCatalogueEntry, type McpConnection } from "glove-mcp";
import { TestAdapter } from "./support/adapter.js";
import { startEverything, type RunningServer } from "./support/servers.js";

let server: RunningServer;
let connection: McpConnection;
const adapter = new TestAdapter();
adapter.tokens.set("everything", "token-1");

function entry(url: string): McpCatalogueEntry {
  return { id: "everything", name: "Everything", description: "MCP test server", url, tags: ["test"] };
}

beforeAll(async () => {
  process.env.GLOVE_MCP_TEST_SECRET = "do-not-leak";
  server = await startEverything("streamableHttp");
  connection = await connectMcp(entry(server.url), { getAccessToken: (id) => adapter.getAccessToken(id) });
});

afterAll(async () => {
  delete process.env.GLOVE_MCP_TEST_SECRET;
  await connection?.close();
  await server?.stop();
});

async function run(steps: ScriptedStep[], extra: Partial<GloveConfig> = {}, request = "go") {
  const store = new MemoryStore("mcp");
  const serverMode = extra.serverMode ?? true;
  let builder = new Glove({
    store,
    model: new ScriptedModel(steps),
    displayManager: new Displaymanager(),
    systemPrompt: "p",
    compaction_config: { compaction_instructions: "s" },
    serverMode,
    ...extra,
  });
  for (const fold of bridgeMcpTools(connection, serverMode)) builder = builder.fold(fold);
  const glove = builder.build();
  const controller = new AbortController();
  const done = glove.processRequest(request, controller.signal).catch((error: unknown) => error);
  return { glove, store, controller, done };
}

async function toolResults(store: MemoryStore): Promise<ToolResult[]> {
  const messages: Message[] = await store.getMessages();
  return messages.flatMap((m) => m.tool_results ?? []);
}

function callOnce(name: string, input: unknown): ScriptedStep[] {
  return [{ toolCalls: [{ name, input, id: "c1" }] }, { text: "done" }];
}

describe("server-everything over Streamable HTTP", () => {
  it("listens on loopback only and runs with a minimal environment", async () => {
    expect(server.host).toBe("127.0.0.1");
    expect(connection.transport).toBe("streamable-http");
    const { store, done } = await run(callOnce("everything__get-env", {}));
    await done;
    const [result] = await toolResults(store);
    expect(result!.result.status).toBe("success");
    const env = JSON.parse(result!.result.data as string) as Record<string, string>;
    expect(env.GLOVE_MCP_TEST_SECRET).toBeUndefined();
    expect(Object.keys(env).sort()).toEqual(expect.arrayContaining(["PATH", "PORT"]));
  });

  it("lists every tool and namespaces them with the entry id, schema forwarded verbatim", () => {
    const names = connection.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["echo", "get-sum", "get-env", "get-tiny-image"]));
    const echo = connection.tools.find((t) => t.name === "echo")!;
    const fold = bridgeMcpTool(connection, echo, false);
    expect(fold.name).toBe("everything__echo");
    expect(fold.jsonSchema).toBe(echo.inputSchema);
    expect(fold.inputSchema).toBeUndefined();
    expect(fold.description).toBe(echo.description);
    for (const fold of bridgeMcpTools(connection, false)) expect(fold.name).toMatch(/^everything__[A-Za-z0-9_-]+$/);
  });

  it("gates by annotations; a serverMode Glove without a policy lets gated tools run (decision 19)", () => {
    const readOnly = connection.tools.find((t) => t.annotations?.readOnlyHint === true)!;
    const notReadOnly = connection.tools.find((t) => t.annotations?.readOnlyHint !== true)!;
    expect(readOnly).toBeDefined();
    expect(notReadOnly).toBeDefined();
    expect(bridgeMcpTool(connection, readOnly).requiresPermission).toBe(false);
    expect(bridgeMcpTool(connection, notReadOnly)).toMatchObject({
      requiresPermission: true,
      serverModeWithoutPolicy: "allow",
    });
  });

  it("asks permission for a non-read-only tool in a UI Glove, not for a read-only one", async () => {
    const asked: string[] = [];
    const { store, done } = await run(
      [
        {
          toolCalls: [
            { name: "everything__get-sum", input: { a: 2, b: 3 }, id: "a" },
            { name: "everything__toggle-simulated-logging", input: {}, id: "b" },
          ],
        },
        { text: "ok" },
      ],
      {
        serverMode: false,
        permissionPolicy: (name) => {
          asked.push(name);
          return "granted";
        },
      },
    );
    await done;
    const results = await toolResults(store);
    expect(results.map((r) => r.result.status)).toEqual(["success", "success"]);
    expect(asked).toEqual(["everything__toggle-simulated-logging"]);
    expect(results.find((r) => r.tool_name === "everything__get-sum")!.result.data).toMatch(/5/);
  });

  it("joins text for the model and keeps the full content in renderData", async () => {
    const { store, done } = await run(callOnce("everything__get-tiny-image", {}));
    await done;
    const [result] = await toolResults(store);
    expect(result!.result.status).toBe("success");
    const content = result!.result.renderData as Array<{ type: string; mimeType?: string; data?: string }>;
    const image = content.find((c) => c.type === "image")!;
    expect(image.mimeType).toBe("image/png");
    expect(image.data!.length).toBeGreaterThan(10);
    expect(typeof result!.result.data).toBe("string");
    expect(result!.result.data as string).not.toContain(image.data!);
    expect(result!.result.data as string).toContain("[image image/png]");
  });

  it("keeps resource links and embedded resources in renderData", async () => {
    const { store, done } = await run([
      {
        toolCalls: [
          { name: "everything__get-resource-links", input: { count: 2 }, id: "a" },
          { name: "everything__get-resource-reference", input: {}, id: "b" },
        ],
      },
      { text: "ok" },
    ]);
    await done;
    const results = await toolResults(store);
    const links = results.find((r) => r.tool_name === "everything__get-resource-links")!.result;
    expect(links.status).toBe("success");
    expect((links.renderData as Array<{ type: string }>).filter((c) => c.type === "resource_link")).toHaveLength(2);
    const reference = results.find((r) => r.tool_name === "everything__get-resource-reference")!.result;
    expect(reference.status).toBe("success");
    expect((reference.renderData as Array<{ type: string }>).some((c) => c.type === "resource")).toBe(true);
  });

  it("gives the model structured content when the server returns it", async () => {
    const { store, done } = await run(callOnce("everything__get-structured-content", { location: "Chicago" }));
    await done;
    const [result] = await toolResults(store);
    expect(result!.result.status).toBe("success");
    expect(result!.result.data).toEqual(
      expect.objectContaining({ temperature: expect.any(Number), conditions: expect.any(String) }),
    );
  });

  it("turns MCP isError results into error results", async () => {
    const { store, done } = await run(callOnce("everything__get-sum", { a: "not a number", b: 1 }));
    await done;
    const [result] = await toolResults(store);
    expect(result!.result.status).toBe("error");
    expect(result!.result.message).toBeTruthy();
  });

  it("cancels the MCP call when the request is aborted", async () => {
    const { store, controller, done } = await run(
      callOnce("everything__trigger-long-running-operation", { duration: 30, steps: 30 }),
    );
    const started = Date.now();
    setTimeout(() => controller.abort(), 300);
    await done;
    // Well before the 30 s operation would end; no tighter, as a loaded machine is slow.
    expect(Date.now() - started).toBeLessThan(20_000);
    const results = await toolResults(store);
    for (const r of results) expect(r.result.status).not.toBe("success");
  });
});
