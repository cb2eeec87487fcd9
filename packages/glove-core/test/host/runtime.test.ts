import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  Displaymanager,
  Glove,
  MemoryStore,
  Runtime,
  type GlovePlugin,
  type SubscriberEvent,
  type Tool,
} from "glove-core";
import { ScriptedModel } from "glove-core/testing";

const tool = (name: string, run: Tool["run"] = async () => `${name} ran`): Tool => ({
  name,
  description: `the ${name} tool`,
  input_schema: z.object({}).passthrough(),
  run,
});

describe("Runtime: registration lifecycle", () => {
  it("plugin state is in place before the agent is visible and dropped before it disappears", () => {
    const runtime = new Runtime();
    const log: string[] = [];
    const state = new Set<string>();
    runtime.plugins.add({
      name: "tracker",
      onRegister: (agent) => {
        log.push(`register ${agent}: visible=${runtime.agent(agent) !== undefined}`);
        state.add(agent);
      },
      onUnregister: (agent) => {
        log.push(`unregister ${agent}: visible=${runtime.agent(agent) !== undefined}`);
        state.delete(agent);
      },
    });
    runtime.register("writer", { systemPrompt: "w", model: new ScriptedModel() });
    expect(state.has("writer")).toBe(true);
    expect(runtime.agentNames()).toEqual(["writer"]);
    expect(runtime.unregister("writer")).toBe(true);
    expect(state.has("writer")).toBe(false);
    expect(runtime.agent("writer")).toBeUndefined();
    expect(runtime.unregister("writer")).toBe(false);
    expect(log).toEqual(["register writer: visible=false", "unregister writer: visible=true"]);
  });

  it("refuses a second agent of the same name and unknown agents clearly", async () => {
    const runtime = new Runtime().register("a", { systemPrompt: "a", model: new ScriptedModel() });
    expect(() => runtime.register("a", { systemPrompt: "a", model: new ScriptedModel() })).toThrow(
      /already registered/,
    );
    await expect(runtime.conversation("zzz", "c1")).rejects.toThrow(/No agent named "zzz".*a/);
  });

  it("opens conversations by id with stores from the factory, one Glove per conversation", async () => {
    const opened: string[] = [];
    const runtime = new Runtime({
      storeFactory: (agent, id) => {
        opened.push(`${agent}/${id}`);
        return new MemoryStore(`${agent}/${id}`);
      },
    }).register("bot", { systemPrompt: "b", model: new ScriptedModel([], { fallback: { text: "hi" } }) });
    const [a1, a2, b] = await Promise.all([
      runtime.conversation("bot", "a"),
      runtime.conversation("bot", "a"),
      runtime.conversation("bot", "b"),
    ]);
    expect(a1).toBe(a2);
    expect(a1).not.toBe(b);
    expect(opened).toEqual(["bot/a", "bot/b"]);
    await runtime.processRequest("bot", "a", "hello");
    expect((await a1.store.getMessages()).map((m) => m.text)).toEqual(["hello", "hi"]);
    expect(await b.store.getMessages()).toEqual([]);
  });
});

describe("Runtime: hosts that pick stores and evict conversations", () => {
  it("opens a conversation on a store the host passes, and closeConversation forgets it until it is rebuilt from that store", async () => {
    const runtime = new Runtime({ storeFactory: () => new MemoryStore("from-factory") });
    const model = new ScriptedModel([{ text: "first" }, { text: "second" }]);
    runtime.register("a", { systemPrompt: "a", model });
    const store = new MemoryStore("given");
    const glove = await runtime.conversation("a", "c1", { store });
    expect(glove.store).toBe(store);
    await glove.processRequest("hello");
    expect(runtime.openConversations).toBe(1);
    expect(runtime.closeConversation("a", "c1")).toBe(true);
    expect(runtime.closeConversation("a", "c1")).toBe(false);
    expect(runtime.openConversations).toBe(0);
    const reopened = await runtime.conversation("a", "c1", { store });
    expect(reopened).not.toBe(glove);
    await reopened.processRequest("again");
    expect(model.requests[1]!.messages.map((m) => m.text)).toEqual(["hello", "first", "again"]);
  });
});

describe("Runtime: bounded memory", () => {
  it("keeps at most maxOpenConversations Gloves, evicting the least recently used idle ones; their stores keep the history", async () => {
    const stores = new Map<string, MemoryStore>();
    const runtime = new Runtime({
      maxOpenConversations: 3,
      storeFactory: (_agent, id) => stores.get(id) ?? stores.set(id, new MemoryStore(id)).get(id)!,
    });
    const model = new ScriptedModel([], { fallback: (request) => ({ text: `seen ${request.messages.length}` }) });
    runtime.register("a", { systemPrompt: "a", model });
    for (let i = 0; i < 10; i++) await runtime.processRequest("a", `c${i}`, "hello");
    expect(runtime.openConversations).toBe(3);
    // An evicted conversation comes back from its store with its history.
    await runtime.processRequest("a", "c0", "again");
    expect((await stores.get("c0")!.getMessages()).map((m) => m.text)).toEqual(["hello", "seen 1", "again", "seen 3"]);
    expect(runtime.openConversations).toBe(3);
    expect(() => new Runtime({ maxOpenConversations: 0 })).toThrow(/maxOpenConversations/);
  });

  it("closes the stores its factory made when it evicts their conversations", async () => {
    const closed: string[] = [];
    class ClosableStore extends MemoryStore {
      close(): void {
        closed.push(this.identifier);
      }
    }
    const runtime = new Runtime({ maxOpenConversations: 1, storeFactory: (_agent, id) => new ClosableStore(id) });
    runtime.register("a", { systemPrompt: "a", model: new ScriptedModel([], { fallback: { text: "ok" } }) });
    await runtime.processRequest("a", "first", "hi");
    await runtime.processRequest("a", "second", "hi");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(closed).toEqual(["first"]);
  });

  it("never evicts a conversation whose request is still running", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const runtime = new Runtime({ maxOpenConversations: 1 });
    runtime.register("a", { systemPrompt: "a", model: new ScriptedModel([], { fallback: { text: "ok" } }) });
    runtime.register("slow", {
      systemPrompt: "s",
      model: {
        name: "slow",
        setSystemPrompt: () => undefined,
        prompt: async () => (
          await gate,
          { messages: [{ sender: "agent", text: "done" }], tokens_in: 1, tokens_out: 1 }
        ),
      },
    });
    const busy = await runtime.conversation("slow", "long");
    const running = busy.processRequest("go");
    await runtime.processRequest("a", "quick", "hi");
    expect(await runtime.conversation("slow", "long")).toBe(busy);
    release();
    await running;
  });
});

describe("Runtime: scope and prompt assembly", () => {
  it("offers only in-scope tools, adds a scope line, and refuses an out-of-scope call with an error result", async () => {
    const ran: string[] = [];
    const model = new ScriptedModel([
      {
        toolCalls: [
          { name: "search", input: {} },
          { name: "delete_all", input: {} },
        ],
      },
      { text: "done" },
    ]);
    const runtime = new Runtime({
      environment: false,
      plugins: [
        {
          name: "os",
          tools: () => [
            tool("search", async () => {
              ran.push("search");
              return "found";
            }),
            tool("delete_all", async () => {
              ran.push("delete_all");
              return "deleted";
            }),
          ],
        },
      ],
    }).register("reader", { systemPrompt: "You read.", model, tools: ["search"] });
    const glove = await runtime.conversation("reader", "c");
    await runtime.processRequest("reader", "c", "go");
    expect(model.requests[0]!.tools!.map((t) => t.name)).toEqual(["search"]);
    expect(model.requests[0]!.systemPrompt).toContain("<scope>\nTools you may use: search.\n</scope>");
    expect(ran).toEqual(["search"]);
    const results = (await glove.store.getMessages()).find((m) => m.tool_results)!.tool_results!;
    expect(results[1]!.result).toMatchObject({
      status: "error",
      message: expect.stringMatching(/outside the scope of agent "reader"/),
    });
  });

  it("restricts skills: out-of-scope /skills do not bind and the skill tool lists only allowed ones", async () => {
    const model = new ScriptedModel([], { fallback: { text: "ok" } });
    const runtime = new Runtime({ environment: false }).register("r", {
      systemPrompt: "p",
      model,
      skills: ["tone"],
      setup: (g) =>
        g
          .defineSkill({
            name: "tone",
            description: "Set the tone",
            exposeToAgent: true,
            handler: async () => "Be warm.",
          })
          .defineSkill({ name: "secret", description: "Hidden", exposeToAgent: true, handler: async () => "secret!" }),
    });
    await runtime.processRequest("r", "c", "/secret /tone hi");
    const request = model.requests[0]!;
    expect(request.messages.map((m) => m.text)).toEqual(["Be warm.", "/secret [invoked_extension__skill_tone] hi"]);
    const skillTool = request.tools!.find((t) => t.name === "glove_invoke_skill")!;
    expect(skillTool.description).toContain("tone");
    expect(skillTool.description).not.toContain("secret");
    expect(request.systemPrompt).toContain("Skills you may use: tone.");
    expect(request.systemPrompt).toContain("- /tone: Set the tone");
  });

  it("assembles the prompt in order: agent prompt, environment, plugin fragments, resource hints, scope", async () => {
    const model = new ScriptedModel([{ text: "ok" }]);
    const runtime = new Runtime({
      plugins: [{ name: "memory", systemPrompt: () => "MEMORY-FRAGMENT", resourceHints: () => "RESOURCE-HINT" }],
    }).register("a", { systemPrompt: "AGENT-PROMPT", model, tools: [] });
    await runtime.processRequest("a", "c", "hi");
    const prompt = model.requests[0]!.systemPrompt!;
    const order = ["AGENT-PROMPT", "<environment>", "MEMORY-FRAGMENT", "RESOURCE-HINT", "<scope>"].map((s) =>
      prompt.indexOf(s),
    );
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((x, y) => x - y)).toEqual(order);
    expect(prompt).toMatch(/Date: \d{4}-\d{2}-\d{2}/);
    expect(prompt).toContain(`Platform: ${process.platform}`);
  });
});

describe("Runtime: plugin hooks on every conversation", () => {
  it("preprocess runs before the message enters the conversation; onEvent sees every event with agent and conversation", async () => {
    const events: Array<[string, string, SubscriberEvent["type"]]> = [];
    const plugin: GlovePlugin = {
      name: "daemon",
      preprocess: (agent, text) => `[${agent}] ${text}`,
      onEvent: (agent, conversationId, event) => {
        events.push([agent, conversationId, event.type]);
      },
    };
    const runtime = new Runtime({ plugins: [plugin], environment: false }).register("bot", {
      systemPrompt: "p",
      model: new ScriptedModel([{ text: "answer" }]),
    });
    const glove = await runtime.conversation("bot", "conv-7");
    await glove.processRequest("hello");
    expect((await glove.store.getMessages())[0]).toMatchObject({ text: "[bot] hello", pre_modified_text: "hello" });
    expect(events.length).toBeGreaterThan(2);
    expect(events.every(([a, c]) => a === "bot" && c === "conv-7")).toBe(true);
    expect(events.map((e) => e[2])).toContain("model_response_complete");
  });

  it("a plugin's dispatch failure reaches the model and UIs as status error, not a string to match", async () => {
    const plugin: GlovePlugin = {
      name: "ops",
      tools: () => [tool("deploy")],
      dispatch: (name) =>
        name === "deploy"
          ? Promise.resolve({ status: "error" as const, data: null, message: "cluster unreachable" })
          : undefined,
    };
    const model = new ScriptedModel([{ toolCalls: [{ name: "deploy", input: {} }] }, { text: "failed" }]);
    const runtime = new Runtime({ plugins: [plugin] }).register("ops", { systemPrompt: "p", model });
    const seen: string[] = [];
    const glove = await runtime.conversation("ops", "c");
    glove.addSubscriber({
      record: async (type, data) => {
        if (type === "tool_use_result") seen.push((data as { result: { status: string } }).result.status);
      },
    });
    await glove.processRequest("deploy");
    expect(seen).toEqual(["error"]);
    const toolMessage = model.requests[1]!.messages.find((m) => m.tool_results)!;
    expect(toolMessage.tool_results![0]!.result).toMatchObject({ status: "error", message: "cluster unreachable" });
  });

  it("embedded use with no plugins behaves exactly like a plain Glove", async () => {
    const steps = [{ toolCalls: [{ name: "t", input: {} }] }, { text: "done" }];
    const viaRuntime = new ScriptedModel(steps);
    const plain = new ScriptedModel(steps);
    const runtime = new Runtime({ environment: false }).register("a", {
      systemPrompt: "same prompt",
      model: viaRuntime,
      setup: (g) => g.fold({ name: "t", description: "t", do: async () => "x" }),
    });
    await runtime.processRequest("a", "c", "go");
    const glove = new Glove({
      model: plain,
      displayManager: new Displaymanager(),
      serverMode: true,
      systemPrompt: "same prompt",
      compaction_config: { compaction_instructions: "Summarize the conversation so far." },
    })
      .fold({ name: "t", description: "t", do: async () => "x" })
      .build(new MemoryStore("c"));
    await glove.processRequest("go");
    const strip = (m: ScriptedModel) =>
      m.requests.map((r) => ({
        system: r.systemPrompt,
        tools: r.tools?.map((t) => t.name),
        // Message ids are fresh per conversation; everything else must match.
        messages: r.messages.map(({ id: _id, ...x }) => ({ ...x, tool_calls: x.tool_calls?.map((c) => c.tool_name) })),
      }));
    expect(strip(viaRuntime)).toEqual(strip(plain));
  });
});
