import { describe, expect, it } from "vitest";
import {
  INBOX_TOOL_NAME,
  MemoryStore,
  Runtime,
  SKILL_INVOKE_TOOL_NAME,
  SUBAGENT_DISPATCH_TOOL_NAME,
  TASK_TOOL_NAME,
} from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { makeGlove } from "../support/make-glove.js";

const SKILL_LIST = "Skills available in this conversation:";

/** The tool names and the system prompt of the first model call. */
async function firstCall(config: Parameters<typeof makeGlove>[1] = {}) {
  const { glove, model } = makeGlove([{ text: "ok" }], config);
  glove.defineSkill({ name: "terse", description: "Short answers", handler: async () => "Be terse." });
  await glove.processRequest("hi");
  return {
    tools: (model.requests[0]!.tools ?? []).map((t) => t.name).sort(),
    prompt: model.requests[0]!.systemPrompt!,
  };
}

describe("what Glove adds by itself", () => {
  it("on a store with tasks and an inbox: the two tools and the skill list, by default", async () => {
    const { tools, prompt } = await firstCall();
    expect(tools).toEqual([INBOX_TOOL_NAME, TASK_TOOL_NAME].sort());
    expect(prompt).toContain(`${SKILL_LIST}\n- /terse: Short answers`);
  });

  it("builtIns turns each off: no tool, no skill list; the skill still binds on /terse", async () => {
    const { tools, prompt } = await firstCall({ builtIns: { tasks: false, inbox: false, skillList: false } });
    expect(tools).toEqual([]);
    expect(prompt).toBe("You are a test agent.");
    const { glove, store } = makeGlove([{ text: "ok" }], { builtIns: { skillList: false } });
    glove.defineSkill({ name: "terse", handler: async () => "Be terse." });
    await glove.processRequest("/terse hi");
    expect((await store.getMessages())[0]).toMatchObject({ text: "Be terse.", is_skill_injection: true });
  });

  it("inbox: false also stops delivering answers and reminding of pending items", async () => {
    const store = new MemoryStore("inbox-off");
    const at = new Date(0).toISOString();
    await store.addInboxItem({
      id: "a",
      tag: "restock",
      request: "More oat milk?",
      response: null,
      status: "pending",
      blocking: true,
      created_at: at,
      resolved_at: null,
    });
    await store.addInboxItem({
      id: "b",
      tag: "price",
      request: "New price?",
      response: "3.50",
      status: "resolved",
      blocking: false,
      created_at: at,
      resolved_at: at,
    });
    const { glove, model } = makeGlove([{ text: "ok" }], { store, builtIns: { inbox: false } });
    await glove.processRequest("hi");
    expect(model.requests[0]!.messages.map((m) => m.text)).toEqual(["hi"]);
    expect(model.requests[0]!.systemPrompt).not.toContain("restock");
    expect((await store.getInboxItems()).find((i) => i.id === "b")!.status).toBe("resolved");
  });

  it("the invoke tools appear only with what needs them", async () => {
    const { glove, model } = makeGlove([{ text: "ok" }], { builtIns: { tasks: false, inbox: false } });
    glove.defineSkill({ name: "hidden", handler: async () => "x" });
    await glove.processRequest("hi");
    expect(model.requests[0]!.tools ?? []).toEqual([]); // no tools: none offered
    glove.defineSkill({ name: "shown", exposeToAgent: true, handler: async () => "x" });
    glove.defineMention({ name: "weather", handler: async () => "sunny" });
    model.push({ text: "ok" });
    await glove.processRequest("again");
    expect(model.requests[1]!.tools!.map((t) => t.name).sort()).toEqual(
      [SKILL_INVOKE_TOOL_NAME, SUBAGENT_DISPATCH_TOOL_NAME].sort(),
    );
  });

  it("a Runtime agent takes builtIns too", async () => {
    const model = new ScriptedModel([{ text: "ok" }]);
    const runtime = new Runtime().register("clerk", { systemPrompt: "You file.", model, builtIns: { tasks: false } });
    await runtime.processRequest("clerk", "c1", "hi");
    expect(model.requests[0]!.tools!.map((t) => t.name)).toEqual([INBOX_TOOL_NAME]);
  });
});
