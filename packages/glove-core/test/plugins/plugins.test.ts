import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  CompositePlugin,
  Displaymanager,
  DuplicateToolError,
  Glove,
  MemoryStore,
  type GloveConfig,
  type GlovePlugin,
  type ModelAdapter,
  type SubscriberEvent,
  type Tool,
  type ToolDispatch,
  type ToolResult,
  type ToolResultData,
} from "glove-core";
import { RecordingSubscriber, ScriptedModel } from "glove-core/testing";

function config(model: ModelAdapter, extra: Partial<GloveConfig> = {}): GloveConfig {
  return {
    model,
    displayManager: new Displaymanager(),
    systemPrompt: "Base prompt.",
    compaction_config: { compaction_instructions: "Summarize." },
    ...extra,
  };
}

function tool(name: string, run: Tool["run"] = async () => `${name} ran`): Tool<unknown> {
  return { name, description: `The ${name} tool.`, run };
}

async function toolResults(glove: Glove): Promise<ToolResult[]> {
  return (await glove.store.getMessages()).flatMap((m) => m.tool_results ?? []);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("GlovePlugin via glove.use()", () => {
  it("offers a plugin's tools to the model and runs them through its dispatch, with the validated input", async () => {
    const run = vi.fn(async () => "run must not be called when dispatch claims the tool");
    const lookup: Tool<unknown> = {
      name: "lookup",
      description: "Look something up.",
      input_schema: z.object({ id: z.coerce.number() }) as z.ZodType<unknown>,
      run,
    };
    const calls: Array<{ name: string; dispatch: ToolDispatch }> = [];
    const plugin: GlovePlugin = {
      name: "lookup-plugin",
      tools: () => [lookup],
      dispatch(name, call) {
        if (name !== "lookup") return undefined;
        calls.push({ name, dispatch: call });
        return Promise.resolve({ status: "success", data: { found: (call.input as { id: number }).id } });
      },
    };
    const model = new ScriptedModel([
      { toolCalls: [{ name: "lookup", input: { id: "7" }, id: "call_1" }] },
      { text: "found it" },
    ]);
    const store = new MemoryStore("conv-42");
    const glove = new Glove(config(model, { store, name: "researcher" })).use(plugin).build();
    await glove.processRequest("find 7");

    expect(model.requests[0]?.tools?.map((t) => t.name)).toContain("lookup");
    expect(run).not.toHaveBeenCalled();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.dispatch).toMatchObject({
      input: { id: 7 }, // coerced by the schema before dispatch
      agent: "researcher",
      conversationId: "conv-42",
      call: { tool_name: "lookup", id: "call_1" },
    });
    expect((await toolResults(glove))[0]?.result).toEqual({ status: "success", data: { found: 7 } });
  });

  it("runs tool.run for a plugin without dispatch", async () => {
    const run = vi.fn(async (input: unknown) => ({ got: input }));
    const plugin: GlovePlugin = { name: "plain", tools: () => [tool("plain_tool", run)] };
    const model = new ScriptedModel([{ toolCalls: [{ name: "plain_tool", input: { a: 1 } }] }, { text: "ok" }]);
    const glove = new Glove(config(model)).use(plugin).build();
    await glove.processRequest("go");
    expect(run).toHaveBeenCalledTimes(1);
    expect(run.mock.calls[0]?.[0]).toEqual({ a: 1 });
    expect((await toolResults(glove))[0]?.result).toEqual({ status: "success", data: { got: { a: 1 } } });
  });

  it("runs tool.run when the plugin's dispatch declines the name", async () => {
    const plugin: GlovePlugin = {
      name: "picky",
      tools: () => [tool("declined", async () => "from run")],
      dispatch: () => undefined,
    };
    const model = new ScriptedModel([{ toolCalls: [{ name: "declined", input: {} }] }, { text: "ok" }]);
    const glove = new Glove(config(model)).use(plugin).build();
    await glove.processRequest("go");
    expect((await toolResults(glove))[0]?.result.data).toBe("from run");
  });

  it("a plugin used after build contributes tools from the next call on", async () => {
    const model = new ScriptedModel([{ text: "one" }, { toolCalls: [{ name: "late", input: {} }] }, { text: "two" }]);
    const glove = new Glove(config(model)).build();
    await glove.processRequest("first");
    glove.use({ name: "late-plugin", tools: () => [tool("late")] });
    await glove.processRequest("second");
    expect(model.requests[0]?.tools?.map((t) => t.name) ?? []).not.toContain("late");
    expect(model.requests[1]?.tools?.map((t) => t.name)).toContain("late");
    expect((await toolResults(glove))[0]?.result.data).toBe("late ran");
  });

  it("appends systemPrompt fragments to request.systemPrompt in plugin order", async () => {
    const model = new ScriptedModel([{ text: "ok" }]);
    const glove = new Glove(config(model))
      .use({ name: "a", systemPrompt: () => "Fragment A." })
      .use({ name: "silent", systemPrompt: () => undefined })
      .use({ name: "b", systemPrompt: () => "Fragment B." })
      .build();
    await glove.processRequest("hi");
    const prompt = model.requests[0]?.systemPrompt ?? "";
    expect(prompt.startsWith("Base prompt.")).toBe(true);
    expect(prompt).toContain("Fragment A.");
    expect(prompt.indexOf("Fragment A.")).toBeLessThan(prompt.indexOf("Fragment B."));
    expect(prompt).not.toContain("undefined");
    // Fragments do not leak into the user-facing prompt.
    expect(glove.getSystemPrompt()).toBe("Base prompt.");
  });

  it("onBuild can rewrite the system prompt, and is re-applied after setSystemPrompt", async () => {
    const onBuild = vi.fn((c: { name: string; systemPrompt: string }) => ({
      ...c,
      systemPrompt: `${c.systemPrompt}\n<env>os=test</env>`,
    }));
    const model = new ScriptedModel([{ text: "one" }, { text: "two" }]);
    const glove = new Glove(config(model, { name: "builder-agent" })).use({ name: "env", onBuild }).build();
    await glove.processRequest("first");
    expect(model.requests[0]?.systemPrompt).toBe("Base prompt.\n<env>os=test</env>");
    expect(onBuild.mock.calls.every(([c]) => c.name === "builder-agent")).toBe(true);

    glove.setSystemPrompt("New prompt.");
    await glove.processRequest("second");
    expect(model.requests[1]?.systemPrompt).toBe("New prompt.\n<env>os=test</env>");
  });

  it("calls onRegister with the agent name when the plugin is installed", () => {
    const onRegister = vi.fn();
    new Glove(config(new ScriptedModel(), { name: "reg" })).use({ name: "r", onRegister });
    expect(onRegister).toHaveBeenCalledTimes(1);
    expect(onRegister.mock.calls[0]?.[0]).toBe("reg");
    expect(onRegister.mock.calls[0]?.[1]).toMatchObject({ name: "reg", systemPrompt: "Base prompt." });
  });

  it("onEvent receives every event, with the agent name and the store identifier as conversationId", async () => {
    const seen: Array<{ agent: string; conversationId: string; event: SubscriberEvent }> = [];
    const subscriber = new RecordingSubscriber();
    const model = new ScriptedModel([
      { text: "Let me look.", toolCalls: [{ name: "t", input: {} }] },
      { text: "Done." },
    ]);
    const glove = new Glove(config(model, { name: "watcher", store: new MemoryStore("conv-7") }))
      .use({
        name: "observer",
        onEvent(agent, conversationId, event) {
          seen.push({ agent, conversationId, event });
        },
      })
      .fold({ name: "t", description: "d", do: async () => "ok" })
      .addSubscriber(subscriber)
      .build();
    await glove.processRequest("go");

    expect(seen.length).toBeGreaterThan(0);
    expect(seen.map((s) => s.event)).toEqual(subscriber.events);
    expect(seen.map((s) => s.event.type)).toEqual(
      expect.arrayContaining([
        "text_delta",
        "tool_use",
        "model_response_complete",
        "tool_use_result",
        "token_consumption",
      ]),
    );
    expect(new Set(seen.map((s) => s.agent))).toEqual(new Set(["watcher"]));
    expect(new Set(seen.map((s) => s.conversationId))).toEqual(new Set(["conv-7"]));
  });

  it("onEvent reports the new store identifier after rebuild(newStore)", async () => {
    const ids: string[] = [];
    const model = new ScriptedModel([{ text: "one" }, { text: "two" }]);
    const glove = new Glove(config(model, { store: new MemoryStore("before") }))
      .use({ name: "ids", onEvent: (_a, id) => void ids.push(id) })
      .build();
    await glove.processRequest("first");
    glove.rebuild(new MemoryStore("after"));
    await glove.processRequest("second");
    expect(ids[0]).toBe("before");
    expect(ids.at(-1)).toBe("after");
  });

  it("a throwing onEvent does not break the run or starve other plugins", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const types: string[] = [];
    const model = new ScriptedModel([{ toolCalls: [{ name: "t", input: {} }] }, { text: "Still fine." }]);
    const glove = new Glove(config(model))
      .use({
        name: "broken",
        onEvent() {
          throw new Error("listener exploded");
        },
      })
      .use({
        name: "async-broken",
        async onEvent() {
          throw new Error("async listener exploded");
        },
      })
      .use({ name: "healthy", onEvent: (_a, _c, e) => void types.push(e.type) })
      .fold({ name: "t", description: "d", do: async () => "ok" })
      .build();
    const result = await glove.processRequest("go");
    expect("messages" in result && result.messages[0]?.text).toBe("Still fine.");
    expect(types).toContain("tool_use_result");
    expect(types.at(-1)).toBe("token_consumption");
    expect((await toolResults(glove))[0]?.result).toEqual({ status: "success", data: "ok" });
    expect(error).toHaveBeenCalled();
  });

  it("preprocess rewrites the user text that is persisted and sent to the model; undefined passes through", async () => {
    const model = new ScriptedModel([{ text: "one" }, { text: "two" }]);
    const glove = new Glove(config(model, { name: "pp" }))
      .use({
        name: "expand",
        preprocess: (agent, text) =>
          text.startsWith("/greet") ? `[${agent}] Please greet ${text.slice(7)}.` : undefined,
      })
      .use({
        name: "upper",
        preprocess: async (_agent, text) => (text.includes("greet") ? text.toUpperCase() : undefined),
      })
      .build();
    await glove.processRequest("/greet Ada");
    await glove.processRequest("plain text");
    const users = (await glove.store.getMessages()).filter((m) => m.sender === "user");
    // Plugins chain: the second sees the first one's output.
    expect(users.map((m) => m.text)).toEqual(["[PP] PLEASE GREET ADA.", "plain text"]);
    expect(model.requests[0]?.messages[0]?.text).toBe("[PP] PLEASE GREET ADA.");
    // What the user typed is kept for transcripts; untouched messages carry no copy.
    expect(users.map((m) => m.pre_modified_text)).toEqual(["/greet Ada", undefined]);
  });

  it("use() of a plugin whose tool name is taken throws DuplicateToolError and installs nothing", async () => {
    const onRegister = vi.fn();
    const glove = new Glove(config(new ScriptedModel([{ text: "ok" }]))).fold({
      name: "taken",
      description: "d",
      do: async () => "folded",
    });
    let error: unknown;
    try {
      glove.use({ name: "clash", tools: () => [tool("fresh"), tool("taken")], onRegister });
    } catch (e) {
      error = e;
    }
    expect(DuplicateToolError.isInstance(error)).toBe(true);
    expect((error as DuplicateToolError).toolName).toBe("taken");
    expect(onRegister).not.toHaveBeenCalled();
    expect(glove.plugins.findTool("fresh")).toBeUndefined();
  });

  it("use() throws DuplicateToolError when two plugins claim one name, and fold() of a plugin-owned name throws too", () => {
    const glove = new Glove(config(new ScriptedModel())).use({ name: "first", tools: () => [tool("shared")] });
    expect(() => glove.use({ name: "second", tools: () => [tool("shared")] })).toThrow(DuplicateToolError);
    let error: unknown;
    try {
      glove.fold({ name: "shared", description: "d", do: async () => "x" });
    } catch (e) {
      error = e;
    }
    expect(DuplicateToolError.isInstance(error)).toBe(true);
  });

  it("use() refuses a plugin that lists one name twice", () => {
    const glove = new Glove(config(new ScriptedModel()));
    expect(() => glove.use({ name: "twice", tools: () => [tool("same"), tool("same")] })).toThrow(DuplicateToolError);
    expect(glove.plugins.findTool("same")).toBeUndefined();
  });

  it("plugins passed in config.plugins are installed like use()", async () => {
    const model = new ScriptedModel([{ text: "ok" }]);
    const glove = new Glove(
      config(model, {
        plugins: [{ name: "cfg", systemPrompt: () => "From config.", tools: () => [tool("cfg_tool")] }],
      }),
    ).build();
    await glove.processRequest("hi");
    expect(model.requests[0]?.systemPrompt).toContain("From config.");
    expect(model.requests[0]?.tools?.map((t) => t.name)).toContain("cfg_tool");
  });
});

describe("CompositePlugin", () => {
  const call = (name: string): ToolDispatch => ({
    call: { tool_name: name, input_args: {}, id: "c1" },
    input: {},
    agent: "main",
    conversationId: "conv",
  });

  it("unions tools in plugin order, each name once, and finds the first owner", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const a: GlovePlugin = { name: "a", tools: () => [tool("a1"), tool("a2")] };
    const none: GlovePlugin = { name: "none" };
    const b: GlovePlugin = { name: "b", tools: () => [tool("b1"), tool("a1")] };
    const composite = new CompositePlugin([a, none, b]);
    // b's "a1" is shadowed by a's: a provider must never receive two tools of one name.
    expect(composite.tools().map((t) => t.name)).toEqual(["a1", "a2", "b1"]);
    warn.mockRestore();
    expect(composite.findTool("a1")?.owner).toBe(a);
    expect(composite.findTool("b1")?.owner).toBe(b);
    expect(composite.findTool("missing")).toBeUndefined();
  });

  it("reads tools() on every call, so a plugin's tool set may change over time", () => {
    const list = [tool("one")];
    const composite = new CompositePlugin([{ name: "dyn", tools: () => list }]);
    expect(composite.tools().map((t) => t.name)).toEqual(["one"]);
    list.push(tool("two"));
    expect(composite.tools().map((t) => t.name)).toEqual(["one", "two"]);
  });

  it("dispatches to the first plugin that claims the name, and returns undefined when none does", async () => {
    const result = (data: string): Promise<ToolResultData> => Promise.resolve({ status: "success", data });
    const second = vi.fn((name: string) => (name === "x" || name === "y" ? result("second") : undefined));
    const composite = new CompositePlugin([
      { name: "no-dispatch", tools: () => [tool("z")] },
      { name: "first", dispatch: (name) => (name === "x" ? result("first") : undefined) },
      { name: "second", dispatch: second },
    ]);
    expect((await composite.dispatch("x", call("x")))?.data).toBe("first");
    expect(second).not.toHaveBeenCalledWith("x", expect.anything());
    expect((await composite.dispatch("y", call("y")))?.data).toBe("second");
    expect(composite.dispatch("z", call("z"))).toBeUndefined();
    expect(composite.dispatch("unknown", call("unknown"))).toBeUndefined();
  });

  it("chains systemPrompt fragments, skipping empty ones", () => {
    const composite = new CompositePlugin([
      { name: "a", systemPrompt: () => "A" },
      { name: "empty", systemPrompt: () => "" },
      { name: "undef", systemPrompt: () => undefined },
      { name: "b", systemPrompt: () => "B" },
    ]);
    expect(composite.systemPrompt()).toBe("A\n\nB");
    expect(new CompositePlugin([{ name: "x" }]).systemPrompt()).toBeUndefined();
  });

  it("chains onBuild in plugin order", () => {
    const composite = new CompositePlugin([
      { name: "a", onBuild: (c) => ({ ...c, systemPrompt: `${c.systemPrompt}+a` }) },
      { name: "skip" },
      { name: "b", onBuild: (c) => ({ ...c, systemPrompt: `${c.systemPrompt}+b`, tools: ["t"] }) },
    ]);
    expect(composite.onBuild({ name: "n", systemPrompt: "p" })).toEqual({
      name: "n",
      systemPrompt: "p+a+b",
      tools: ["t"],
    });
  });

  it("chains preprocess: each plugin sees the previous rewrite, undefined passes through", async () => {
    const composite = new CompositePlugin([
      { name: "a", preprocess: (_agent, t) => `${t}!` },
      { name: "pass", preprocess: () => undefined },
      { name: "b", preprocess: async (agent, t) => `${agent}:${t}` },
    ]);
    expect(await composite.preprocess("bot", "hi")).toBe("bot:hi!");
    expect(
      await new CompositePlugin([{ name: "pass", preprocess: () => undefined }]).preprocess("bot", "hi"),
    ).toBeUndefined();
  });

  it("merges beforeRequest contributions: messages in order, reminders joined, onPersisted all called in order", async () => {
    const order: string[] = [];
    const composite = new CompositePlugin([
      {
        name: "a",
        beforeRequest: async () => ({
          messages: [{ sender: "user", text: "from a" }],
          reminder: "Reminder A",
          onPersisted: async () => void order.push("a"),
        }),
      },
      { name: "nothing", beforeRequest: async () => undefined },
      { name: "no-hook" },
      {
        name: "b",
        beforeRequest: async () => ({
          messages: [
            { sender: "user", text: "from b 1" },
            { sender: "user", text: "from b 2" },
          ],
          onPersisted: async () => void order.push("b"),
        }),
      },
      { name: "c", beforeRequest: async () => ({ reminder: "Reminder C" }) },
    ]);
    const merged = await composite.beforeRequest({ agent: "main", store: new MemoryStore("s") });
    expect(merged.messages?.map((m) => m.text)).toEqual(["from a", "from b 1", "from b 2"]);
    expect(merged.reminder).toBe("Reminder A\n\nReminder C");
    await merged.onPersisted?.();
    expect(order).toEqual(["a", "b"]);

    const empty = await new CompositePlugin([{ name: "x" }]).beforeRequest({
      agent: "main",
      store: new MemoryStore("s"),
    });
    expect(empty.messages).toEqual([]);
    expect(empty.reminder).toBeUndefined();
    expect(empty.onPersisted).toBeUndefined();
  });

  it("fans onEvent out to every plugin and isolates a throwing one", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const got: string[] = [];
    const composite = new CompositePlugin([
      {
        name: "throws",
        onEvent: () => {
          throw new Error("boom");
        },
      },
      {
        name: "rejects",
        onEvent: async () => {
          throw new Error("boom");
        },
      },
      { name: "ok", onEvent: (agent, conv, e) => void got.push(`${agent}/${conv}/${e.type}`) },
    ]);
    await composite.onEvent("main", "conv", { type: "text_delta", text: "hi" });
    expect(got).toEqual(["main/conv/text_delta"]);
  });

  it("fans onRegister and onUnregister out, and supports add/remove/replaceByName/removeByName", () => {
    const reg: string[] = [];
    const a: GlovePlugin = {
      name: "a",
      onRegister: (n) => void reg.push(`a+${n}`),
      onUnregister: (n) => void reg.push(`a-${n}`),
    };
    const b: GlovePlugin = { name: "b", onRegister: (n) => void reg.push(`b+${n}`) };
    const composite = new CompositePlugin([a]);
    composite.add(b);
    composite.onRegister("x", { name: "x", systemPrompt: "" });
    composite.onUnregister("x");
    expect(reg).toEqual(["a+x", "b+x", "a-x"]);

    const b2: GlovePlugin = { name: "b", tools: () => [tool("b2")] };
    composite.replaceByName(b2);
    expect(composite.list()).toEqual([a, b2]);
    expect(composite.remove(a)).toBe(true);
    expect(composite.remove(a)).toBe(false);
    composite.removeByName("b");
    expect(composite.list()).toEqual([]);
  });
});
