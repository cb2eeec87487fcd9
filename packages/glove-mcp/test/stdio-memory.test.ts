import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Displaymanager, Glove, MemoryStore, type GloveConfig, type ToolResult } from "glove-core";
import { ScriptedModel, type ScriptedStep } from "glove-core/testing";
import { bridgeMcpTools, connectMcp, type McpCatalogueEntry, type McpConnection } from "glove-mcp";
import { minimalEnv, serverScript } from "./support/servers.js";

let dir: string;
let connection: McpConnection;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "glove-mcp-memory-"));
  const entry: McpCatalogueEntry = {
    id: "memory",
    name: "Memory",
    description: "Knowledge graph memory",
    url: "stdio://memory",
    stdio: {
      command: process.execPath,
      args: [serverScript("server-memory")],
      env: minimalEnv({ MEMORY_FILE_PATH: path.join(dir, "memory.jsonl") }),
    },
  };
  connection = await connectMcp(entry);
});

afterAll(async () => {
  await connection?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function run(steps: ScriptedStep[], extra: Partial<GloveConfig>) {
  const store = new MemoryStore("memory");
  const serverMode = extra.serverMode ?? true;
  let builder = new Glove({
    store,
    model: new ScriptedModel(steps),
    displayManager: new Displaymanager(),
    systemPrompt: "p",
    compaction_config: { compaction_instructions: "s" },
    ...extra,
  });
  for (const fold of bridgeMcpTools(connection, serverMode)) builder = builder.fold(fold);
  await builder.build().processRequest("go");
  const messages = await store.getMessages();
  return messages.flatMap((m): ToolResult[] => m.tool_results ?? []);
}

describe("server-memory over stdio", () => {
  it("connects over stdio and lists the memory tools", () => {
    expect(connection.transport).toBe("stdio");
    expect(connection.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["create_entities", "read_graph", "delete_entities"]),
    );
  });

  it("writes and reads the graph through a serverMode Glove without prompts, destructive tools included", async () => {
    const results = await run(
      [
        {
          toolCalls: [
            {
              name: "memory__create_entities",
              input: { entities: [{ name: "Ada", entityType: "person", observations: ["wrote notes"] }] },
              id: "c1",
            },
          ],
        },
        { toolCalls: [{ name: "memory__read_graph", input: {}, id: "c2" }] },
        { toolCalls: [{ name: "memory__delete_entities", input: { entityNames: ["Ada"] }, id: "c3" }] },
        { toolCalls: [{ name: "memory__read_graph", input: {}, id: "c4" }] },
        { text: "done" },
      ],
      { serverMode: true },
    );
    expect(results.map((r) => r.result.status)).toEqual(["success", "success", "success", "success"]);
    const graph = results[1]!.result.data;
    expect(JSON.stringify(graph)).toContain("Ada");
    expect(JSON.stringify(results[3]!.result.data)).not.toContain("Ada");
  });

  it("gates non-read-only tools in a UI Glove: a denied write never reaches the server", async () => {
    const asked: string[] = [];
    const results = await run(
      [
        {
          toolCalls: [
            {
              name: "memory__create_entities",
              input: { entities: [{ name: "Bob", entityType: "person", observations: [] }] },
              id: "c1",
            },
            { name: "memory__search_nodes", input: { query: "Bob" }, id: "c2" },
          ],
        },
        { text: "done" },
      ],
      {
        serverMode: false,
        toolConcurrency: 1,
        permissionPolicy: (name) => {
          asked.push(name);
          return "denied";
        },
      },
    );
    expect(asked).toEqual(["memory__create_entities"]);
    expect(results[0]!.result.status).toBe("error");
    expect(results[1]!.result.status).toBe("success");
    expect(JSON.stringify(results[1]!.result.data)).not.toContain("Bob");
  });
});
