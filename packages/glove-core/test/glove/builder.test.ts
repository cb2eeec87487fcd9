import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ConfigurationError,
  Displaymanager,
  DuplicateToolError,
  Glove,
  MemoryStore,
  SUBAGENT_DISPATCH_TOOL_NAME,
  type ContentPart,
  type DisplayManagerAdapter,
  type GloveConfig,
  type ModelAdapter,
  type PromptRequest,
  type StoreAdapter,
  type ToolResult,
  type ToolCallDisplay,
} from "glove-core";
import { RecordingSubscriber, ScriptedModel } from "glove-core/testing";

function config(model: ModelAdapter, extra: Partial<GloveConfig> = {}): GloveConfig {
  return {
    model,
    displayManager: new Displaymanager(),
    systemPrompt: "You are a test agent.",
    compaction_config: { compaction_instructions: "Summarize." },
    ...extra,
  };
}

function toolNames(request: PromptRequest | undefined): string[] {
  return (request?.tools ?? []).map((t) => t.name);
}

async function toolResults(store: StoreAdapter): Promise<ToolResult[]> {
  return (await store.getMessages()).flatMap((m) => m.tool_results ?? []);
}

/** The error a call throws synchronously or rejects with. */
async function errorOf(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

const echo = {
  name: "echo",
  description: "Echo the input.",
  inputSchema: z.object({ text: z.string() }),
  async do(input: { text: string }) {
    return { status: "success" as const, data: `echo:${input.text}` };
  },
};

describe("Glove: stores", () => {
  it("works without a store: build() creates a MemoryStore, exposed as glove.store, that receives the history", async () => {
    const model = new ScriptedModel([{ text: "hi there" }]);
    const glove = new Glove(config(model)).build();
    expect(glove.store).toBeInstanceOf(MemoryStore);
    await glove.processRequest("hello");
    const history = await glove.store.getMessages();
    expect(history.map((m) => [m.sender, m.text])).toEqual([
      ["user", "hello"],
      ["agent", "hi there"],
    ]);
  });

  it("gives two store-less Gloves distinct default stores", () => {
    const a = new Glove(config(new ScriptedModel())).build();
    const b = new Glove(config(new ScriptedModel())).build();
    expect(a.store).not.toBe(b.store);
    expect(a.store.identifier).not.toBe(b.store.identifier);
  });

  it("build(store) persists to the store passed to build, even over one from the config", async () => {
    const fromConfig = new MemoryStore("config-store");
    const fromBuild = new MemoryStore("build-store");
    const glove = new Glove(config(new ScriptedModel([{ text: "ok" }]), { store: fromConfig })).build(fromBuild);
    expect(glove.store).toBe(fromBuild);
    await glove.processRequest("hello");
    expect(await fromBuild.getMessages()).toHaveLength(2);
    expect(await fromConfig.getMessages()).toHaveLength(0);
  });

  it("build() without arguments uses the store from the config", async () => {
    const store = new MemoryStore("config-store");
    const glove = new Glove(config(new ScriptedModel([{ text: "ok" }]), { store })).build();
    expect(glove.store).toBe(store);
    await glove.processRequest("hello");
    expect(await store.getMessages()).toHaveLength(2);
  });

  it("rebuild(newStore) keeps folded tools and subscribers and writes to the new store", async () => {
    const first = new MemoryStore("first");
    const second = new MemoryStore("second");
    const events = new RecordingSubscriber();
    const model = new ScriptedModel([
      { text: "one" },
      { toolCalls: [{ name: "echo", input: { text: "x" } }] },
      { text: "two" },
    ]);
    const glove = new Glove(config(model, { store: first })).fold(echo).addSubscriber(events).build();
    await glove.processRequest("first request");
    const firstCount = (await first.getMessages()).length;

    expect(glove.rebuild(second)).toBe(glove);
    expect(glove.store).toBe(second);
    events.clear();
    await glove.processRequest("second request");

    expect((await first.getMessages()).length).toBe(firstCount);
    const history = await second.getMessages();
    expect(history[0]).toMatchObject({ sender: "user", text: "second request" });
    expect((await toolResults(second)).map((r) => r.result)).toEqual([{ status: "success", data: "echo:x" }]);
    // The model only saw the new store's conversation.
    expect(model.requests[1]?.messages.map((m) => m.text)).toEqual(["second request"]);
    expect(toolNames(model.requests[1])).toContain("echo");
    // The subscriber added before rebuild still receives events.
    expect(events.ofType("tool_use_result")).toHaveLength(1);
    expect(events.types()).toContain("model_response_complete");
  });

  it("rebuild() without a store keeps the current store and its history", async () => {
    const store = new MemoryStore("kept");
    const model = new ScriptedModel([{ text: "one" }, { text: "two" }]);
    const glove = new Glove(config(model, { store })).build();
    await glove.processRequest("first");
    glove.rebuild();
    expect(glove.store).toBe(store);
    await glove.processRequest("second");
    expect(model.requests[1]?.messages.map((m) => m.text)).toEqual(["first", "one", "second"]);
  });
});

describe("Glove: tools", () => {
  it("offers tools folded before build, and tools folded after build from the next model call on", async () => {
    const model = new ScriptedModel([{ text: "one" }, { toolCalls: [{ name: "late", input: {} }] }, { text: "two" }]);
    const glove = new Glove(config(model)).fold(echo).build();
    await glove.processRequest("first");
    expect(toolNames(model.requests[0])).toContain("echo");
    expect(toolNames(model.requests[0])).not.toContain("late");

    let ran = 0;
    glove.fold({
      name: "late",
      description: "Folded after build.",
      async do() {
        ran += 1;
        return "late result";
      },
    });
    await glove.processRequest("second");
    expect(toolNames(model.requests[1])).toEqual(expect.arrayContaining(["echo", "late"]));
    expect(ran).toBe(1);
  });

  it("a tool can fold another tool through its glove argument; the next model call of the same request offers it", async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ name: "install", input: {} }] },
      { toolCalls: [{ name: "installed", input: {} }] },
      { text: "done" },
    ]);
    const glove = new Glove(config(model))
      .fold({
        name: "install",
        description: "Installs another tool.",
        async do(_input, _display, g) {
          g.fold({ name: "installed", description: "Added at runtime.", do: async () => "it works" });
          return "installed";
        },
      })
      .build();
    await glove.processRequest("go");
    expect(toolNames(model.requests[0])).not.toContain("installed");
    expect(toolNames(model.requests[1])).toContain("installed");
    expect((await toolResults(glove.store)).map((r) => r.result.data)).toEqual(["installed", "it works"]);
  });

  it("fold() rejects invalid tool names and missing do/description with a ConfigurationError", () => {
    const glove = new Glove(config(new ScriptedModel()));
    const bad = ["", "has space", "dot.name", "a".repeat(65), "émoji"];
    for (const name of bad) {
      const error = (() => {
        try {
          glove.fold({ name, description: "d", do: async () => "x" });
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(ConfigurationError.isInstance(error), `name ${JSON.stringify(name)}`).toBe(true);
    }
    expect(() => glove.fold({ name: "no_do", description: "d" } as unknown as Parameters<Glove["fold"]>[0])).toThrow(
      /do\(/,
    );
    expect(() =>
      glove.fold({ name: "no_desc", do: async () => "x" } as unknown as Parameters<Glove["fold"]>[0]),
    ).toThrow(/description/);
    // Valid edge cases are accepted.
    glove.fold({ name: "a".repeat(64), description: "d", do: async () => "x" });
    glove.fold({ name: "ok-name_2", description: "d", do: async () => "x" });
  });

  it("fold() of a taken name throws DuplicateToolError unless replace: true, which swaps the implementation", async () => {
    const model = new ScriptedModel([{ toolCalls: [{ name: "echo", input: { text: "x" } }] }, { text: "done" }]);
    const glove = new Glove(config(model)).fold(echo);
    let error: unknown;
    try {
      glove.fold(echo);
    } catch (e) {
      error = e;
    }
    expect(DuplicateToolError.isInstance(error)).toBe(true);
    glove.fold({ ...echo, replace: true, do: async () => "replaced" }).build();
    await glove.processRequest("go");
    expect((await toolResults(glove.store))[0]?.result.data).toBe("replaced");
    expect(toolNames(model.requests[0]).filter((n) => n === "echo")).toHaveLength(1);
  });

  it("wraps plain tool return values as { status: 'success', data }", async () => {
    const model = new ScriptedModel([
      {
        toolCalls: [
          { name: "number", input: {} },
          { name: "object", input: {} },
          { name: "string", input: {} },
          { name: "odd_status", input: {} },
          { name: "nothing", input: {} },
          { name: "proper", input: {} },
        ],
      },
      { text: "done" },
    ]);
    const glove = new Glove(config(model))
      .fold({ name: "number", description: "d", do: async () => 42 })
      .fold({ name: "object", description: "d", do: async () => ({ city: "Tokyo", temp: 21 }) })
      .fold({ name: "string", description: "d", do: async () => "plain text" })
      .fold({ name: "odd_status", description: "d", do: async () => ({ status: "ok", n: 1 }) })
      .fold({ name: "nothing", description: "d", do: async () => undefined })
      .fold({ name: "proper", description: "d", do: async () => ({ status: "error", data: "bad", message: "m" }) })
      .build();
    await glove.processRequest("go");
    expect((await toolResults(glove.store)).map((r) => [r.tool_name, r.result])).toEqual([
      ["number", { status: "success", data: 42 }],
      ["object", { status: "success", data: { city: "Tokyo", temp: 21 } }],
      ["string", { status: "success", data: "plain text" }],
      ["odd_status", { status: "success", data: { status: "ok", n: 1 } }],
      ["nothing", { status: "success", data: null }],
      ["proper", { status: "error", data: "bad", message: "m" }],
    ]);
  });

  it("exports the subagent dispatch tool name", () => {
    expect(SUBAGENT_DISPATCH_TOOL_NAME).toBe("glove_invoke_subagent");
  });
});

describe("Glove: model, system prompt, display manager", () => {
  it("setModel swaps the adapter for the next call", async () => {
    const a = new ScriptedModel([{ text: "from a" }], { name: "a" });
    const b = new ScriptedModel([{ text: "from b" }], { name: "b" });
    const glove = new Glove(config(a)).build();
    expect(glove.model).toBe(a);
    await glove.processRequest("one");
    glove.setModel(b);
    expect(glove.model).toBe(b);
    const result = await glove.processRequest("two");
    expect("messages" in result && result.messages[0]?.text).toBe("from b");
    expect(a.requests).toHaveLength(1);
    expect(b.requests).toHaveLength(1);
    // The new model sees the whole conversation so far.
    expect(b.requests[0]?.messages.map((m) => m.text)).toEqual(["one", "from a", "two"]);
  });

  it("setModel before build is used by the built agent", async () => {
    const a = new ScriptedModel([], { name: "a" });
    const b = new ScriptedModel([{ text: "from b" }], { name: "b" });
    const glove = new Glove(config(a));
    glove.setModel(b);
    glove.build();
    await glove.processRequest("one");
    expect(a.requests).toHaveLength(0);
    expect(b.requests).toHaveLength(1);
  });

  it("setSystemPrompt changes getSystemPrompt and the system prompt of the next request", async () => {
    const model = new ScriptedModel([{ text: "one" }, { text: "two" }]);
    const glove = new Glove(config(model, { systemPrompt: "Original prompt." })).build();
    expect(glove.getSystemPrompt()).toBe("Original prompt.");
    await glove.processRequest("first");
    glove.setSystemPrompt("Replacement prompt.");
    expect(glove.getSystemPrompt()).toBe("Replacement prompt.");
    await glove.processRequest("second");
    expect(model.requests[0]?.systemPrompt).toBe("Original prompt.");
    expect(model.requests[1]?.systemPrompt).toBe("Replacement prompt.");
  });

  it("setSystemPrompt before build is used from the first request", async () => {
    const model = new ScriptedModel([{ text: "one" }]);
    const glove = new Glove(config(model, { systemPrompt: "Original." }));
    glove.setSystemPrompt("Set before build.");
    glove.build();
    await glove.processRequest("first");
    expect(model.requests[0]?.systemPrompt).toBe("Set before build.");
  });

  it("setDisplayManager is chainable and tools get the display manager current when they run", async () => {
    const dm1 = new Displaymanager();
    const dm2 = new Displaymanager();
    const dm3 = new Displaymanager();
    const seen: DisplayManagerAdapter[] = [];
    const model = new ScriptedModel([
      { toolCalls: [{ name: "show", input: {} }] },
      // Swapped mid-request, between two tool turns.
      () => {
        glove.setDisplayManager(dm2);
        return { toolCalls: [{ name: "show", input: {} }] };
      },
      { text: "done" },
      { toolCalls: [{ name: "show", input: {} }] },
      { text: "done again" },
    ]);
    const glove = new Glove(config(model, { displayManager: dm1 }))
      .fold({
        name: "show",
        description: "Records its display manager.",
        async do(_input, display) {
          // Tools get a per-call view (tags slots with the call); it forwards to the current manager.
          seen.push((display as ToolCallDisplay).manager);
          return "shown";
        },
      })
      .build();
    expect(glove.displayManager).toBe(dm1);
    await glove.processRequest("first");
    // Identity matters: distinct Displaymanagers are structurally equal.
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(dm1);
    expect(seen[1]).toBe(dm2);

    expect(glove.setDisplayManager(dm3)).toBe(glove);
    expect(glove.displayManager).toBe(dm3);
    await glove.processRequest("second");
    expect(seen[2]).toBe(dm3);
  });

  it("setDisplayManager in builder form (before build) chains into build", async () => {
    const original = new Displaymanager();
    const replacement = new Displaymanager();
    let seen: DisplayManagerAdapter | undefined;
    const model = new ScriptedModel([{ toolCalls: [{ name: "show", input: {} }] }, { text: "done" }]);
    const glove = new Glove(config(model, { displayManager: original }))
      .setDisplayManager(replacement)
      .fold({
        name: "show",
        description: "d",
        async do(_input, display) {
          seen = (display as ToolCallDisplay).manager;
          return "ok";
        },
      })
      .build();
    await glove.processRequest("go");
    expect(seen).toBe(replacement);
  });

  it("exposes serverMode (default false)", () => {
    expect(new Glove(config(new ScriptedModel())).serverMode).toBe(false);
    expect(new Glove(config(new ScriptedModel(), { serverMode: true })).serverMode).toBe(true);
  });
});

describe("Glove: misuse", () => {
  it("processRequest before build fails with a ConfigurationError that says to call build()", async () => {
    const model = new ScriptedModel([{ text: "never" }]);
    const glove = new Glove(config(model));
    const error = await errorOf(() => glove.processRequest("hello"));
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/build\(\)/);
    expect(model.requests).toHaveLength(0);
    // A rejected promise, not a synchronous throw, so .catch() handlers see it.
    let thrownSynchronously = false;
    let rejection: unknown;
    try {
      await glove.processRequest("again").catch((e: unknown) => {
        rejection = e;
      });
    } catch {
      thrownSynchronously = true;
    }
    expect(thrownSynchronously).toBe(false);
    expect(ConfigurationError.isInstance(rejection)).toBe(true);
  });

  it("reading glove.store before build fails with a ConfigurationError", async () => {
    const glove = new Glove(config(new ScriptedModel()));
    const error = await errorOf(() => glove.store);
    expect(ConfigurationError.isInstance(error)).toBe(true);
  });

  it.each([
    ["model", "model"],
    ["systemPrompt", "systemPrompt"],
  ] as const)("a config without %s throws a ConfigurationError naming it", async (field, named) => {
    const full = config(new ScriptedModel()) as unknown as Record<string, unknown>;
    const { [field]: _removed, ...rest } = full;
    const error = await errorOf(() => new Glove(rest as unknown as GloveConfig));
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(named);
    // Only the missing field is named.
    for (const other of ["model", "systemPrompt"].filter((f) => f !== field)) {
      expect((error as Error).message).not.toContain(`${other} (`);
    }
  });

  it("names every missing field at once, and rejects a missing config object", async () => {
    const error = await errorOf(() => new Glove({} as unknown as GloveConfig));
    expect(ConfigurationError.isInstance(error)).toBe(true);
    for (const field of ["model", "systemPrompt"]) {
      expect((error as Error).message).toContain(field);
    }
    // These two have defaults: never reported missing.
    expect((error as Error).message).not.toMatch(/displayManager|compaction_config/);
    const none = await errorOf(() => new Glove(undefined as unknown as GloveConfig));
    expect(ConfigurationError.isInstance(none)).toBe(true);
  });
});

describe("Glove: multimodal requests", () => {
  it("joins text parts into message.text and keeps image parts in message.content", async () => {
    const model = new ScriptedModel([{ text: "a cat" }]);
    const glove = new Glove(config(model)).build();
    const image: ContentPart = {
      type: "image",
      source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" },
    };
    await glove.processRequest([{ type: "text", text: "What is in" }, image, { type: "text", text: "this picture?" }]);
    const [user] = await glove.store.getMessages();
    expect(user).toMatchObject({ sender: "user", text: "What is in\nthis picture?", content: [image] });
    // The model receives the image too.
    expect(model.requests[0]?.messages[0]?.content).toEqual([image]);
    expect(model.requests[0]?.messages[0]?.text).toBe("What is in\nthis picture?");
  });

  it("a plain string request stores no content parts", async () => {
    const glove = new Glove(config(new ScriptedModel([{ text: "ok" }]))).build();
    await glove.processRequest("just text");
    const [user] = await glove.store.getMessages();
    expect(user?.content).toBeUndefined();
  });
});
