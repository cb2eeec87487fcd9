import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Glove } from "glove-core";
import { ScriptedModel, type ScriptedStep } from "glove-core/testing";
import {
  bridgeMcpTools,
  connectMcp,
  McpConnectError,
  MemoryMcpAdapter,
  mountMcp,
  type McpCatalogueEntry,
  type McpMount,
} from "glove-mcp";
import { serverScript, startEverything, type RunningServer } from "./support/servers.js";

/** The short forms against the published reference server: no catalogue, no adapter, no dummy url. */

const everything = { command: process.execPath, args: [serverScript("server-everything")] };

/** A Glove on only a model and a prompt, and the tool results of one request once `attach` ran. */
async function runWith(steps: ScriptedStep[], attach: (glove: Glove) => Promise<McpMount | undefined>) {
  const model = new ScriptedModel(steps);
  const glove = new Glove({ model, systemPrompt: "You use tools." }).build();
  const mount = await attach(glove);
  try {
    await glove.processRequest("go");
    const results = (await glove.store.getMessages()).flatMap((m) => m.tool_results ?? []);
    return { model, results, mount };
  } finally {
    await mount?.unmount();
  }
}

describe("mountMcp(glove, { command, args })", () => {
  it("connects one stdio server and a Glove calls its tool, named mcp__<tool> by default", async () => {
    const { model, results, mount } = await runWith(
      [{ toolCalls: [{ name: "mcp__get-sum", input: { a: 2, b: 3 } }] }, { text: "5" }],
      (glove) => mountMcp(glove, everything),
    );
    expect(mount?.reloaded).toEqual(["mcp"]);
    expect(results[0]?.result.status).toBe("success");
    expect(String(results[0]?.result.data)).toContain("5");
    // One server asked for, one server mounted: no discovery subagent.
    const offered = (model.requests[0]?.tools ?? []).map((t) => t.name);
    expect(offered).toContain("mcp__echo");
    expect(offered).not.toContain("glove_invoke_subagent");
  });

  it("takes an id for the tool names", async () => {
    const { results } = await runWith(
      [{ toolCalls: [{ name: "everything__echo", input: { message: "hi" } }] }, { text: "done" }],
      (glove) => mountMcp(glove, { id: "everything", ...everything }),
    );
    expect(results[0]?.result).toMatchObject({ status: "success", data: "Echo: hi" });
  });

  it("rejects with the connection's error, and adds no tools, when the server does not start", async () => {
    const glove = new Glove({ model: new ScriptedModel(), systemPrompt: "p" }).build();
    await expect(
      mountMcp(glove, { command: process.execPath, args: ["-e", "process.exit(3)"] }, { connectTimeoutMs: 20_000 }),
    ).rejects.toThrow();
    expect(glove.plugins.tools().map((t) => t.name)).not.toContain("mcp__echo");
  });

  it("refuses a server that says neither how to start it nor where it is, saying what to pass", async () => {
    const glove = new Glove({ model: new ScriptedModel(), systemPrompt: "p" }).build();
    for (const server of [
      {},
      { command: "" },
      { id: "", url: "http://127.0.0.1:1/mcp" },
      { command: "node", args: "x.js" },
    ]) {
      const error = await mountMcp(glove, server as never).catch((e: unknown) => e);
      expect(McpConnectError.isInstance(error), JSON.stringify(server)).toBe(true);
    }
    const none = await mountMcp(glove, {} as never).catch((e: unknown) => e);
    expect((none as Error).message).toMatch(
      /\{ command, args\? \} for a local server .* or \{ url \} for a remote one/,
    );
  });
});

describe("mountMcp(glove, { url })", () => {
  let http: RunningServer;
  beforeAll(async () => {
    http = await startEverything("streamableHttp");
  });
  afterAll(async () => {
    await http?.stop();
  });

  it("connects a Streamable HTTP server by its URL alone", async () => {
    let transport: string | undefined;
    const { results } = await runWith(
      [{ toolCalls: [{ name: "remote__echo", input: { message: "over http" } }] }, { text: "done" }],
      async (glove) => {
        const mount = await mountMcp(glove, { id: "remote", url: http.url });
        transport = mount.session.connection("remote")?.transport;
        return mount;
      },
    );
    expect(transport).toBe("streamable-http");
    expect(results[0]?.result).toMatchObject({ status: "success", data: "Echo: over http" });
  });
});

describe("connectMcp and catalogue entries without a url", () => {
  it("connectMcp takes { command, args } directly", async () => {
    const connection = await connectMcp({ id: "everything", ...everything });
    try {
      expect(connection.transport).toBe("stdio");
      expect(connection.entry).toMatchObject({ id: "everything", name: "everything", stdio: everything });
      const { results } = await runWith(
        [{ toolCalls: [{ name: "everything__echo", input: { message: "direct" } }] }, { text: "done" }],
        async (glove) => {
          for (const fold of bridgeMcpTools(connection)) glove.fold(fold);
          return undefined;
        },
      );
      expect(results[0]?.result).toMatchObject({ status: "success", data: "Echo: direct" });
    } finally {
      await connection.close();
    }
  });

  it("a stdio catalogue entry needs no url, and mountMcp's adapter defaults to a MemoryMcpAdapter", async () => {
    const entry: McpCatalogueEntry = {
      id: "everything",
      name: "Everything",
      description: "The reference server.",
      stdio: everything,
    };
    const adapter = new MemoryMcpAdapter({ active: ["everything"] });
    const { results, mount } = await runWith(
      [{ toolCalls: [{ name: "everything__echo", input: { message: "catalogue" } }] }, { text: "done" }],
      (glove) => mountMcp(glove, { adapter, entries: [entry] }),
    );
    expect(mount?.reloaded).toEqual(["everything"]);
    expect(results[0]?.result).toMatchObject({ status: "success", data: "Echo: catalogue" });

    // No adapter at all: nothing is active yet; discovery can switch entries on.
    const glove = new Glove({ model: new ScriptedModel(), systemPrompt: "p" }).build();
    const discoveryOnly = await mountMcp(glove, { entries: [entry] });
    expect(discoveryOnly.reloaded).toEqual([]);
    expect(glove.plugins.tools().map((t) => t.name)).toContain("glove_invoke_subagent");
    await discoveryOnly.unmount();
  });
});
