import { describe, expect, it } from "vitest";
import { ExtensionError, formatSkillMessage, SKILL_INVOKE_TOOL_NAME } from "glove-core";
import { makeGlove } from "../support/make-glove.js";

describe("user-invoked skills", () => {
  it("become synthetic user messages stored before the real one, flagged is_skill_injection", async () => {
    const { glove, store, model, events } = makeGlove([{ text: "ok" }]);
    const contexts: unknown[] = [];
    glove.defineSkill({
      name: "concise",
      handler: async ({ name, source, parsedText, args }) => {
        contexts.push({ name, source, parsedText, args });
        return "Be terse.";
      },
    });
    await glove.processRequest("/concise tell me about Rust");
    const [skill, user] = await store.getMessages();
    expect(skill).toEqual({ sender: "user", id: expect.any(String), text: "Be terse.", is_skill_injection: true });
    expect(user!.text).toBe("[invoked_extension__skill_concise] tell me about Rust");
    expect(user!.pre_modified_text).toBe("/concise tell me about Rust");
    expect(contexts).toEqual([{ name: "concise", source: "user", parsedText: "tell me about Rust", args: undefined }]);
    expect(model.requests[0]!.messages.map((m) => m.text)).toEqual(["Be terse.", user!.text]);
    expect(events.ofType("skill_invoked")).toEqual([{ type: "skill_invoked", name: "concise", source: "user" }]);
  });

  it("hooks bind before skills of the same name, and skills see hook rewrites", async () => {
    const { glove, store } = makeGlove([{ text: "ok" }]);
    let hookRan = false;
    let skillSaw = "";
    glove
      .defineSkill({ name: "both", handler: async () => "skill" })
      .defineHook("both", async () => {
        hookRan = true;
        return { rewriteText: "rewritten" };
      })
      .defineSkill({
        name: "echo",
        handler: async ({ parsedText }) => {
          skillSaw = parsedText;
          return "echo";
        },
      });
    await glove.processRequest("/both /echo original");
    expect(hookRan).toBe(true);
    expect(skillSaw).toBe("rewritten");
    expect((await store.getMessages()).filter((m) => m.is_skill_injection).map((m) => m.text)).toEqual(["echo"]);
  });

  it("ContentPart[] output keeps media on the synthetic message", () => {
    const msg = formatSkillMessage("img", [
      { type: "text", text: "Look at this" },
      { type: "image", source: { type: "url", media_type: "image/png", url: "https://x/y.png" } },
    ]);
    expect(msg.text).toBe("Look at this");
    expect(msg.content).toEqual([
      { type: "image", source: { type: "url", media_type: "image/png", url: "https://x/y.png" } },
    ]);
  });

  it("a throwing skill fails with ExtensionError and stores nothing half-done", async () => {
    const { glove, store } = makeGlove([{ text: "never" }]);
    glove.defineSkill({ name: "good", handler: async () => "fine" }).defineSkill({
      name: "bad",
      handler: async () => {
        throw new Error("template missing");
      },
    });
    const error = await glove.processRequest("/good /bad hi").catch((e: unknown) => e);
    expect(ExtensionError.isInstance(error) && error.kind === "skill" && error.extensionName === "bad").toBe(true);
    expect(await store.getMessages()).toEqual([]);
  });
});

describe("agent-invoked skills (glove_invoke_skill)", () => {
  it("one tool lists every exposed skill, rebuilt when a skill is exposed after build", async () => {
    const { glove, model } = makeGlove([{ text: "a" }, { text: "b" }]);
    glove.defineSkill({ name: "hidden", handler: async () => "x" });
    await glove.processRequest("one");
    expect(model.requests[0]!.tools?.some((t) => t.name === SKILL_INVOKE_TOOL_NAME)).toBe(false);
    glove
      .defineSkill({
        name: "research",
        description: "Long-form research mode",
        exposeToAgent: true,
        handler: async () => "r",
      })
      .defineSkill({ name: "concise", description: "Tighter answers", exposeToAgent: true, handler: async () => "c" });
    await glove.processRequest("two");
    const tools = model.requests[1]!.tools!.filter((t) => t.name === SKILL_INVOKE_TOOL_NAME);
    expect(tools).toHaveLength(1);
    expect(tools[0]!.description).toContain("research: Long-form research mode");
    expect(tools[0]!.description).toContain("concise: Tighter answers");
    expect(tools[0]!.description).not.toContain("hidden");
  });

  it("returns { skill, content } for strings; joined text + renderData for parts; errors for unknown or unexposed", async () => {
    const parts = [
      { type: "text" as const, text: "Part one." },
      { type: "text" as const, text: "Part two." },
      { type: "image" as const, source: { type: "url", media_type: "image/png", url: "u" } },
    ];
    const { glove, store, events } = makeGlove([
      {
        toolCalls: [
          { name: SKILL_INVOKE_TOOL_NAME, input: { name: "research", args: "ribosomes" } },
          { name: SKILL_INVOKE_TOOL_NAME, input: { name: "multi" } },
          { name: SKILL_INVOKE_TOOL_NAME, input: { name: "nope" } },
          { name: SKILL_INVOKE_TOOL_NAME, input: { name: "userOnly" } },
        ],
      },
      { text: "done" },
    ]);
    let agentCtx: unknown;
    glove
      .defineSkill({
        name: "research",
        exposeToAgent: true,
        handler: async ({ source, args, parsedText }) => {
          agentCtx = { source, args, parsedText };
          return `Research: ${args}`;
        },
      })
      .defineSkill({ name: "multi", exposeToAgent: true, handler: async () => parts })
      .defineSkill({ name: "userOnly", handler: async () => "secret" });
    await glove.processRequest("go");
    const results = (await store.getMessages()).find((m) => m.tool_results)!.tool_results!.map((r) => r.result);
    expect(results[0]).toEqual({ status: "success", data: { skill: "research", content: "Research: ribosomes" } });
    expect(agentCtx).toEqual({ source: "agent", args: "ribosomes", parsedText: "ribosomes" });
    expect(results[1]).toEqual({
      status: "success",
      data: { skill: "multi", content: "Part one.\nPart two." },
      renderData: parts,
    });
    expect(results[2]).toMatchObject({
      status: "error",
      data: null,
      message: expect.stringMatching(/Skill "nope" is not available/),
    });
    expect(results[3]).toMatchObject({
      status: "error",
      data: null,
      message: expect.stringMatching(/Skill "userOnly" is not available/),
    });
    expect(events.ofType("skill_invoked")).toEqual([
      { type: "skill_invoked", name: "research", source: "agent", args: "ribosomes" },
      { type: "skill_invoked", name: "multi", source: "agent", args: undefined },
    ]);
  });
});

describe("createSkillInvokeTool standalone", () => {
  it("builds the tool from a registry and reports unexposed skills as errors", async () => {
    const { SkillRegistry, createSkillInvokeTool } = await import("glove-core");
    const registry = new SkillRegistry();
    registry.define({
      name: "tone",
      exposeToAgent: true,
      description: "Set tone",
      handler: async ({ args }) => `tone=${args}`,
    });
    registry.define({ name: "private", handler: async () => "x" });
    const tool = createSkillInvokeTool(registry, () => {
      throw new Error("controls are not needed by these handlers");
    });
    expect(tool.name).toBe(SKILL_INVOKE_TOOL_NAME);
    expect(tool.description).toContain("tone: Set tone");
    expect(tool.description).not.toContain("private");
    expect(await tool.run({ name: "private" })).toMatchObject({ status: "error", data: null });
  });
});
