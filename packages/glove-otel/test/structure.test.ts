import { SpanStatusCode } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { ConfigurationError, Glove, Displaymanager, MemoryStore } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { bridgeMcpTool, ScopeChallengeLog, type McpConnection, type McpTool } from "glove-mcp";
import { describe, expect, it } from "vitest";
import { gloveTracing, traceGlove } from "../src/index.js";
import { makeGlove, memoryTracing } from "./support/memory.js";

describe("glove-otel subagents", () => {
  it("a subagent run is an invoke_agent span under the tool call that started it", async () => {
    const t = memoryTracing();
    const model = new ScriptedModel([
      { toolCalls: [{ name: "glove_invoke_subagent", input: { name: "reviewer", prompt: "Review: let x = 1" } }] },
      { text: "LGTM — but prefer const." }, // the child's answer
      { text: "The reviewer says: prefer const." },
    ]);
    const parent = traceGlove(
      makeGlove({ model })
        .defineSubAgent({
          name: "reviewer",
          description: "Code review specialist.",
          factory: async ({ parentStore, displayManager }) =>
            new Glove({
              model,
              displayManager,
              systemPrompt: "You review code.",
              compaction_config: { compaction_instructions: "Summarize." },
            }).build(await parentStore.createSubAgentStore!("reviewer", true)),
        })
        .build(),
      { tracer: t.tracer },
    );
    await parent.processRequest("@reviewer please look at my code");

    expect(t.tree()).toBe(
      [
        "invoke_agent main",
        "  chat scripted",
        "  execute_tool glove_invoke_subagent",
        "    invoke_agent reviewer",
        "      chat",
        "  chat scripted",
      ].join("\n"),
    );
    const sub = t.named("invoke_agent reviewer");
    expect(sub.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "reviewer",
      "glove.subagent": true,
      "glove.subagent.status": "success",
    });
    expect(t.named("execute_tool glove_invoke_subagent").attributes["glove.tool.source"]).toBe("subagent");
    expect(t.open.size).toBe(0);
  });

  it("a failing subagent ends its span with error status", async () => {
    const t = memoryTracing();
    const model = new ScriptedModel([
      { toolCalls: [{ name: "glove_invoke_subagent", input: { name: "broken", prompt: "x" } }] },
      { text: "It failed." },
    ]);
    const parent = traceGlove(
      makeGlove({ model })
        .defineSubAgent({
          name: "broken",
          description: "Always fails.",
          factory: async () => {
            throw new Error("no child today");
          },
        })
        .build(),
      { tracer: t.tracer },
    );
    await parent.processRequest("go");
    const sub = t.named("invoke_agent broken");
    expect(sub.status).toMatchObject({ code: SpanStatusCode.ERROR, message: "no child today" });
    expect(sub.attributes["glove.subagent.status"]).toBe("error");
    expect(t.named("execute_tool glove_invoke_subagent").status.code).toBe(SpanStatusCode.ERROR);
    expect(t.open.size).toBe(0);
  });
});

describe("glove-otel span events", () => {
  it("compaction is a pair of events on the request span; the summary only with content capture", async () => {
    for (const captureContent of [false, true]) {
      const t = memoryTracing();
      const model = new ScriptedModel([
        { text: "A long answer.", tokens_in: 500, tokens_out: 20 },
        { text: "SUMMARY-TEXT" },
      ]);
      const agent = traceGlove(
        makeGlove({
          model,
          compaction_config: { compaction_instructions: "Summarize.", compaction_context_limit: 100 },
        }).build(),
        { tracer: t.tracer, captureContent },
      );
      await agent.processRequest("hi");
      const root = t.named("invoke_agent main");
      expect(root.events.map((e) => e.name)).toEqual(["glove.compaction.start", "glove.compaction.end"]);
      expect(root.events[0]!.attributes).toEqual({ "glove.compaction.tokens": 520 });
      const summary = root.events[1]!.attributes?.["glove.compaction.summary"];
      if (captureContent) expect(summary).toContain("SUMMARY-TEXT");
      else expect(summary).toBeUndefined();
      // The summary call streams nothing: one chat span, for the answer.
      expect(t.tree()).toBe("invoke_agent main\n  chat scripted");
    }
  });

  it("hooks and skills are events on the request span; skill arguments only with content capture", async () => {
    const t = memoryTracing();
    const model = new ScriptedModel([
      { toolCalls: [{ name: "glove_invoke_skill", input: { name: "concise", args: "SECRET-ARGS" } }] },
      { text: "Done." },
    ]);
    const agent = traceGlove(
      makeGlove({ model })
        .defineHook("note", async () => undefined)
        .defineSkill({
          name: "concise",
          description: "Be brief.",
          exposeToAgent: true,
          handler: async () => "Be terse.",
        })
        .build(),
      { tracer: t.tracer },
    );
    await agent.processRequest("/note /concise tell me");
    const events = t.named("invoke_agent main").events.map((e) => [e.name, e.attributes]);
    expect(events).toEqual([
      ["glove.hook.invoked", { "glove.hook.name": "note" }],
      ["glove.skill.invoked", { "glove.skill.name": "concise", "glove.skill.source": "user" }],
      ["glove.skill.invoked", { "glove.skill.name": "concise", "glove.skill.source": "agent" }],
    ]);
  });
});

describe("glove-otel isolation", () => {
  function toolGlove(name: string, tool: string, delayMs: number): Glove {
    const model = new ScriptedModel(
      [{ text: `${name} checks.`, toolCalls: [{ name: tool, input: {} }] }, { text: `${name} is done.` }],
      { delayMs },
    );
    return makeGlove({ model, name })
      .fold({
        name: tool,
        description: "Waits a little.",
        async do() {
          await new Promise((r) => setTimeout(r, delayMs * 2));
          return "ok";
        },
      })
      .build();
  }

  it("two Gloves running concurrently keep separate traces", async () => {
    const t = memoryTracing();
    const alpha = traceGlove(toolGlove("alpha", "tool_a", 3), { tracer: t.tracer });
    const beta = traceGlove(toolGlove("beta", "tool_b", 4), { tracer: t.tracer });
    await Promise.all([alpha.processRequest("go"), beta.processRequest("go")]);

    const byTrace = new Map<string, ReadableSpan[]>();
    for (const s of t.spans())
      byTrace.set(s.spanContext().traceId, [...(byTrace.get(s.spanContext().traceId) ?? []), s]);
    expect(byTrace.size).toBe(2);
    const trees = [...byTrace.values()].map((spans) => t.tree(spans.find((s) => !s.parentSpanContext)!)).sort();
    expect(trees).toEqual([
      "invoke_agent alpha\n  chat scripted\n  execute_tool tool_a\n  chat scripted",
      "invoke_agent beta\n  chat scripted\n  execute_tool tool_b\n  chat scripted",
    ]);
    expect(t.open.size).toBe(0);
  });

  it("requests queued on one Glove get one trace each, with their own content", async () => {
    const t = memoryTracing();
    const model = new ScriptedModel([{ text: "first answer" }, { text: "second answer" }], { delayMs: 2 });
    const agent = traceGlove(makeGlove({ model }).build(), { tracer: t.tracer, captureContent: true });
    await Promise.all([agent.processRequest("first question"), agent.processRequest("second question")]);
    const roots = t.spans().filter((s) => s.name === "invoke_agent main");
    expect(roots).toHaveLength(2);
    const pairs = roots.map((r) => [
      JSON.parse(r.attributes["gen_ai.input.messages"] as string)[0].parts[0].content,
      JSON.parse(r.attributes["gen_ai.output.messages"] as string)[0].parts[0].content,
    ]);
    expect(pairs.sort()).toEqual([
      ["first question", "first answer"],
      ["second question", "second answer"],
    ]);
    for (const root of roots) expect(t.childrenOf(root).map((c) => c.name)).toEqual(["chat scripted"]);
  });

  it("one gloveTracing() instance traces one Glove", () => {
    const tracing = gloveTracing();
    tracing.instrument(makeGlove({ model: new ScriptedModel() }).build());
    expect(() => tracing.instrument(makeGlove({ model: new ScriptedModel() }).build())).toThrow(ConfigurationError);
  });
});

describe("glove-otel MCP tools and plugin-only use", () => {
  it("marks tools bridged by glove-mcp with glove.tool.source mcp and the server", async () => {
    const t = memoryTracing();
    // The parts of a live connection a bridged call reads.
    const connection = {
      namespace: "files",
      entry: { id: "files", name: "Files", description: "files", url: "stdio:files" },
      scopeChallenges: new ScopeChallengeLog(),
      client: { callTool: async () => ({ content: [{ type: "text", text: "hello" }] }) },
    } as unknown as McpConnection;
    const tool = {
      name: "read_file",
      inputSchema: { type: "object", properties: {} },
      annotations: { readOnlyHint: true },
    } as unknown as McpTool;
    const fold = bridgeMcpTool(connection, tool, true);
    const model = new ScriptedModel([{ toolCalls: [{ name: fold.name, input: {} }] }, { text: "It says hello." }]);
    const agent = traceGlove(makeGlove({ model }).fold(fold).build(), { tracer: t.tracer });
    await agent.processRequest("read it");
    expect(t.named("execute_tool files__read_file").attributes).toMatchObject({
      "gen_ai.tool.name": "files__read_file",
      "glove.tool.source": "mcp",
      "glove.mcp.server": "files",
      "glove.tool.status": "success",
    });
  });

  it("glove.use(gloveTracing()) alone traces from events; the request span ends at the final answer", async () => {
    const t = memoryTracing();
    const model = new ScriptedModel([{ toolCalls: [{ name: "noop", input: {} }] }, { text: "Done." }]);
    const agent = new Glove({
      store: new MemoryStore("plugin-only"),
      model,
      displayManager: new Displaymanager(),
      systemPrompt: "Test.",
      compaction_config: { compaction_instructions: "Summarize." },
    })
      .fold({
        name: "noop",
        description: "Nothing.",
        async do() {
          return "ok";
        },
      })
      .use(gloveTracing({ tracer: t.tracer, agentName: "plain" }))
      .build();
    await agent.processRequest("go");
    expect(t.tree()).toBe("invoke_agent plain\n  chat\n  execute_tool noop\n  chat");
    expect(t.named("invoke_agent plain").attributes["gen_ai.conversation.id"]).toBe("plugin-only");
    expect(t.open.size).toBe(0);
  });
});
