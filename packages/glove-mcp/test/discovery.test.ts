import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Displaymanager, Glove, MemoryStore, type GloveConfig, type Message, type ToolResult } from "glove-core";
import { RecordingSubscriber, ScriptedModel, type ScriptedStep } from "glove-core/testing";
import {
  matchCatalogue,
  MCP_PICKER_RENDERER,
  mountMcp,
  type AmbiguityPolicy,
  type McpCatalogueEntry,
  type McpMount,
  type McpPickerInput,
} from "glove-mcp";
import { TestAdapter } from "./support/adapter.js";
import { minimalEnv, serverScript, startEverything, type RunningServer } from "./support/servers.js";

let server: RunningServer;
let dir: string;
let entries: McpCatalogueEntry[];
const mounts: McpMount[] = [];

const memoryEntry = (id: string, name: string, description: string, tags: string[]): McpCatalogueEntry => ({
  id,
  name,
  description,
  tags,
  url: `stdio://${id}`,
  stdio: {
    command: process.execPath,
    args: [serverScript("server-memory")],
    env: minimalEnv({ MEMORY_FILE_PATH: path.join(dir, `${id}.jsonl`) }),
  },
});

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "glove-mcp-discovery-"));
  server = await startEverything("streamableHttp");
  entries = [
    {
      id: "everything",
      name: "Everything",
      description: "Echo, sums and test images.",
      url: server.url,
      tags: ["echo", "test"],
    },
    memoryEntry("notes", "Notes memory", "Knowledge graph of personal notes.", ["notes", "knowledge", "memory"]),
    memoryEntry("crm", "CRM memory", "Knowledge graph of customers.", ["knowledge", "customers"]),
    { id: "broken", name: "Broken", description: "Nothing listens here.", url: "http://127.0.0.1:9/mcp" },
  ];
});

afterAll(async () => {
  for (const m of mounts) await m.unmount();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function adapterWith(active: string[] = []) {
  const adapter = new TestAdapter();
  for (const e of ["everything", "notes", "crm", "broken"]) adapter.tokens.set(e, "t");
  for (const id of active) adapter.active.add(id);
  return adapter;
}

async function setup(opts: {
  parent: ScriptedStep[];
  child?: ScriptedStep[];
  adapter?: TestAdapter;
  policy?: AmbiguityPolicy;
  config?: Partial<GloveConfig>;
  log?: string[];
}) {
  const store = new MemoryStore("discovery");
  const displayManager = new Displaymanager();
  const glove = new Glove({
    store,
    model: new ScriptedModel(opts.parent),
    displayManager,
    systemPrompt: "p",
    serverMode: true,
    compaction_config: { compaction_instructions: "s" },
    ...opts.config,
  }).build();
  const recorder = new RecordingSubscriber();
  glove.addSubscriber(recorder);
  const adapter = opts.adapter ?? adapterWith();
  const mount = await mountMcp(glove, {
    adapter,
    entries,
    ...(opts.child ? { subagentModel: new ScriptedModel(opts.child) } : {}),
    ...(opts.policy ? { ambiguityPolicy: opts.policy } : {}),
    log: (m) => opts.log?.push(m),
  });
  mounts.push(mount);
  return { glove, store, displayManager, recorder, adapter, mount };
}

async function results(store: MemoryStore): Promise<ToolResult[]> {
  const messages: Message[] = await store.getMessages();
  return messages.flatMap((m) => m.tool_results ?? []);
}

const invoke = (prompt: string, id = "d1"): ScriptedStep => ({
  toolCalls: [{ name: "glove_invoke_subagent", input: { name: "discovermcp", prompt }, id }],
});

describe("catalogue matching", () => {
  it("ranks by name, tags and description", () => {
    expect(matchCatalogue(entries, "echo something").map((e) => e.id)).toEqual(["everything"]);
    expect(matchCatalogue(entries, "knowledge notes").map((e) => e.id)).toEqual(["notes", "crm"]);
    expect(matchCatalogue(entries, "weather")).toEqual([]);
  });
});

describe("discovermcp", () => {
  it("activates a match and the parent's next turn uses its tools (auto-pick in serverMode), bracketed by events", async () => {
    const { store, recorder, adapter, glove } = await setup({
      parent: [
        invoke("Find an MCP that can echo"),
        { toolCalls: [{ name: "everything__echo", input: { message: "hello" }, id: "e1" }] },
        { text: "done" },
      ],
      child: [
        { toolCalls: [{ name: "mcp_activate", input: { query: "echo" }, id: "a1" }] },
        { text: "Activated everything." },
      ],
    });
    await glove.processRequest("please echo hello");
    const all = await results(store);
    expect(all.map((r) => [r.tool_name, r.result.status])).toEqual([
      ["glove_invoke_subagent", "success"],
      ["everything__echo", "success"],
    ]);
    expect(all[1]!.result.data).toContain("hello");
    expect(adapter.active.has("everything")).toBe(true);
    // the discovery conversation lives in the child's own store, not the parent's
    const parentCalls = (await store.getMessages()).flatMap((m) => m.tool_calls ?? []).map((c) => c.tool_name);
    expect(parentCalls).not.toContain("mcp_activate");
    const types = recorder.types();
    const invoked = types.indexOf("subagent_invoked");
    const completed = types.indexOf("subagent_completed");
    expect(invoked).toBeGreaterThanOrEqual(0);
    expect(completed).toBeGreaterThan(invoked);
    // the child's tool run is visible to parent subscribers, inside the brackets
    const childToolEvents = recorder.events
      .map((e, i) => ({ e, i }))
      .filter(({ e }) => JSON.stringify(e).includes("mcp_activate"));
    expect(childToolEvents.length).toBeGreaterThan(0);
    expect(childToolEvents.every(({ i }) => i > invoked && i < completed)).toBe(true);
  });

  it("auto-pick-best activates the highest-ranked of several matches", async () => {
    const { glove, adapter, store } = await setup({
      parent: [invoke("notes"), { text: "ok" }],
      child: [{ toolCalls: [{ name: "mcp_activate", input: { query: "knowledge notes" }, id: "a1" }] }, { text: "ok" }],
    });
    await glove.processRequest("go");
    expect([...adapter.active]).toEqual(["notes"]);
    expect((await results(store))[0]!.result.status).toBe("success");
  });

  it("defer-to-main returns the candidates without activating", async () => {
    const seen: unknown[] = [];
    const { glove, adapter } = await setup({
      policy: { type: "defer-to-main" },
      parent: [invoke("knowledge"), { text: "ok" }],
      child: [
        { toolCalls: [{ name: "mcp_activate", input: { query: "knowledge graph" }, id: "a1" }] },
        (request) => {
          seen.push(request.messages.at(-1)?.tool_results?.[0]?.result.data);
          return { text: "Candidates: notes, crm" };
        },
      ],
    });
    await glove.processRequest("go");
    expect(adapter.active.size).toBe(0);
    expect(seen[0]).toMatchObject({ ambiguous: true, candidates: [{ id: "notes" }, { id: "crm" }] });
  });

  it("interactive pushes an mcp_picker slot on the parent's display manager and activates the pick", async () => {
    const { glove, adapter, displayManager } = await setup({
      policy: { type: "interactive" },
      config: { serverMode: false },
      parent: [invoke("knowledge"), { text: "ok" }],
      child: [{ toolCalls: [{ name: "mcp_activate", input: { query: "knowledge graph" }, id: "a1" }] }, { text: "ok" }],
    });
    const pickerInputs: McpPickerInput[] = [];
    displayManager.subscribe((stack) => {
      for (const slot of stack) {
        if (slot.renderer === MCP_PICKER_RENDERER && !pickerInputs.length) {
          pickerInputs.push(slot.input as McpPickerInput);
          displayManager.resolve(slot.id, "crm");
        }
      }
    });
    await glove.processRequest("go");
    expect(pickerInputs[0]!.candidates.map((c) => c.id)).toEqual(["notes", "crm"]);
    expect([...adapter.active]).toEqual(["crm"]);
  });

  it("activating twice does not duplicate tools", async () => {
    const { glove, mount } = await setup({
      parent: [invoke("echo", "d1"), invoke("echo again", "d2"), { text: "ok" }],
      child: [
        { toolCalls: [{ name: "mcp_activate", input: { id: "everything" }, id: "a1" }] },
        { text: "ok" },
        { toolCalls: [{ name: "mcp_activate", input: { id: "everything" }, id: "a2" }] },
        { text: "ok" },
      ],
    });
    await glove.processRequest("go");
    expect(mount.session.activeIds()).toEqual(["everything"]);
    const model = glove.model as ScriptedModel;
    const last = model.requests.at(-1)!;
    const names = (last.tools ?? []).map((t) => t.name);
    expect(names.filter((n) => n === "everything__echo")).toHaveLength(1);
  });
});

describe("mountMcp", () => {
  it("reloads active entries, skipping a failing one with a logged reason", async () => {
    const log: string[] = [];
    const { glove, store, mount } = await setup({
      adapter: adapterWith(["broken", "everything"]),
      log,
      parent: [{ toolCalls: [{ name: "everything__get-sum", input: { a: 1, b: 2 }, id: "s1" }] }, { text: "3" }],
    });
    expect(mount.reloaded).toEqual(["everything"]);
    expect(mount.failed.map((f) => f.id)).toEqual(["broken"]);
    expect(log[0]).toMatch(/broken/);
    await glove.processRequest("add");
    const [r] = await results(store);
    expect(r!.result.status).toBe("success");
    expect(r!.result.data).toMatch(/3/);
  });

  it("deactivate removes the entry's tools from the running Glove and closes its connection", async () => {
    const { glove, store, mount, adapter } = await setup({
      adapter: adapterWith(["everything"]),
      parent: [
        { toolCalls: [{ name: "everything__echo", input: { message: "one" }, id: "e1" }] },
        { text: "ok" },
        { toolCalls: [{ name: "everything__echo", input: { message: "two" }, id: "e2" }] },
        { text: "ok" },
      ],
    });
    await glove.processRequest("first");
    const connection = mount.session.connection("everything")!;
    await mount.deactivate("everything");
    expect(adapter.active.has("everything")).toBe(false);
    await expect(connection.client.ping()).rejects.toThrow();
    await glove.processRequest("second");
    const all = await results(store);
    expect(all.map((r) => r.result.status)).toEqual(["success", "error"]);
    const model = glove.model as ScriptedModel;
    expect((model.requests.at(-1)!.tools ?? []).some((t) => t.name.startsWith("everything__"))).toBe(false);
  });
});
