import { describe, expect, it } from "vitest";
import { AbortError, Displaymanager, Glove, SUBAGENT_DISPATCH_TOOL_NAME, type StoreAdapter } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { deferred, expectValidHistory, makeGlove } from "../support/make-glove.js";

const invoke = (name: string, prompt: string) => ({
  toolCalls: [{ name: SUBAGENT_DISPATCH_TOOL_NAME, input: { name, prompt } }],
});

async function results(store: StoreAdapter) {
  return (await store.getMessages()).flatMap((m) => m.tool_results ?? []).map((r) => r.result);
}

describe("mentions", () => {
  it("@name reaches the model verbatim; the handler's output is the tool result", async () => {
    const { glove, store, model, events } = makeGlove([invoke("weather", "NYC today"), { text: "Sunny in NYC." }]);
    let received: unknown;
    glove.defineMention({
      name: "weather",
      description: "Weather subagent. Use for weather questions.",
      handler: async ({ name, prompt }) => {
        received = { name, prompt };
        return "NYC: 21°C, sunny";
      },
    });
    await glove.processRequest("@weather NYC");
    expect(model.requests[0]!.messages[0]!.text).toBe("@weather NYC");
    const tool = model.requests[0]!.tools!.find((t) => t.name === SUBAGENT_DISPATCH_TOOL_NAME)!;
    expect(tool.description).toContain("weather: Weather subagent.");
    expect(received).toEqual({ name: "weather", prompt: "NYC today" });
    expect(await results(store)).toEqual([
      { status: "success", data: { subagent: "weather", content: "NYC: 21°C, sunny" } },
    ]);
    expect(events.types().filter((t) => t.startsWith("subagent"))).toEqual(["subagent_invoked", "subagent_completed"]);
    expect(events.ofType("subagent_invoked")[0]).toMatchObject({ name: "weather", prompt: "NYC today" });
  });

  it("unknown names give an error result listing the subagents, still bracketed once", async () => {
    const { glove, store, events } = makeGlove([invoke("nobody", "x"), { text: "" }]);
    glove.defineMention({ name: "reviewer", handler: async () => "ok" });
    await glove.processRequest("go");
    const [r] = await results(store);
    expect(r).toMatchObject({
      status: "error",
      data: null,
      message: expect.stringMatching(/Unknown subagent "nobody".*reviewer/),
    });
    expect(events.ofType("subagent_completed")).toEqual([
      { type: "subagent_completed", name: "nobody", status: "error", message: expect.stringMatching(/Unknown/) },
    ]);
  });
});

describe("subagent factories", () => {
  it("the factory gets the parent's store and controls; the child's answer comes back; parent subscribers see child events", async () => {
    const parentModel = new ScriptedModel([invoke("planner", "Plan a trip"), { text: "Here is the plan." }]);
    const childModel = new ScriptedModel([{ text: "Day 1: Kyoto." }, { text: "Day 2: Nara." }]);
    const { glove, store, events } = makeGlove([], { model: parentModel });
    let childStore: StoreAdapter | undefined;
    glove.defineSubAgent({
      name: "planner",
      description: "Plans trips.",
      factory: async ({ parentStore, controls, prompt, displayManager }) => {
        expect(parentStore).toBe(store);
        expect(controls.glove).toBe(glove);
        expect(prompt).toBe("Plan a trip");
        childStore = await parentStore.createSubAgentStore!("planner", true);
        return new Glove({
          model: childModel,
          displayManager,
          systemPrompt: "You plan trips.",
          compaction_config: { compaction_instructions: "Summarize." },
        }).build(childStore);
      },
    });
    await glove.processRequest("plan me a trip");
    expect(await results(store)).toEqual([
      { status: "success", data: { subagent: "planner", content: "Day 1: Kyoto." } },
    ]);
    // The child ran on its own durable store; the parent's history has none of its turns.
    expect((await childStore!.getMessages()).map((m) => m.text)).toEqual(["Plan a trip", "Day 1: Kyoto."]);
    expect((await store.getMessages()).some((m) => m.text === "Day 1: Kyoto.")).toBe(false);
    // Parent subscribers saw the child's streamed text between the bracket events.
    const types = events.types();
    const start = types.indexOf("subagent_invoked");
    const end = types.indexOf("subagent_completed");
    const childDeltas = events.events.slice(start, end).filter((e) => e.type === "text_delta");
    expect(childDeltas.map((e) => (e as { text: string }).text).join("")).toBe("Day 1: Kyoto.");
    expect(events.ofType("subagent_completed")).toEqual([
      { type: "subagent_completed", name: "planner", status: "success", message: undefined },
    ]);
    // Durable: a second invocation continues the same child history.
    const again = await store.createSubAgentStore!("planner", true);
    expect(again).toBe(childStore);
  });

  it("a factory that throws: error result, subagent_completed fires once with status error", async () => {
    const { glove, store, events } = makeGlove([invoke("broken", "x"), { text: "sorry" }]);
    glove.defineSubAgent({
      name: "broken",
      factory: () => {
        throw new Error("no credentials");
      },
    });
    await glove.processRequest("go");
    const [r] = await results(store);
    expect(r).toMatchObject({
      status: "error",
      message: expect.stringMatching(/Subagent "broken" failed: no credentials/),
    });
    expect(events.ofType("subagent_invoked")).toHaveLength(1);
    expect(events.ofType("subagent_completed")).toEqual([
      { type: "subagent_completed", name: "broken", status: "error", message: "no credentials" },
    ]);
  });

  it("abort reaches the child; the bracket closes once; history stays valid", async () => {
    const started = deferred();
    const childModel = new ScriptedModel([{ text: "a very slow answer indeed" }], { delayMs: 30 });
    const { glove, store, events } = makeGlove([invoke("slow", "work")]);
    let childSignal: AbortSignal | undefined;
    glove.defineSubAgent({
      name: "slow",
      factory: ({ signal }) => {
        childSignal = signal;
        started.resolve();
        return new Glove({
          model: childModel,
          displayManager: new Displaymanager(),
          systemPrompt: "slow",
          compaction_config: { compaction_instructions: "s" },
        }).build();
      },
    });
    const controller = new AbortController();
    const pending = glove.processRequest("go", controller.signal);
    await started.promise;
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    expect(childSignal?.aborted).toBe(true);
    expect(events.ofType("subagent_invoked")).toHaveLength(1);
    expect(events.ofType("subagent_completed")).toEqual([
      { type: "subagent_completed", name: "slow", status: "error", message: "aborted" },
    ]);
    const [r] = await results(store);
    expect(r!.status).toBe("aborted");
    await expectValidHistory(store);
  });

  it("a child sharing the parent's model adapter never changes the parent's system prompt or model", async () => {
    const shared = new ScriptedModel([invoke("helper", "help"), { text: "child answer" }, { text: "parent answer" }]);
    const { glove } = makeGlove([], { model: shared, systemPrompt: "PARENT PROMPT" });
    glove.defineSubAgent({
      name: "helper",
      factory: () =>
        new Glove({
          model: shared,
          displayManager: new Displaymanager(),
          systemPrompt: "CHILD PROMPT",
          compaction_config: { compaction_instructions: "s" },
        }).build(),
    });
    await glove.processRequest("go");
    expect(shared.requests.map((r) => r.systemPrompt?.split("\n")[0])).toEqual([
      "PARENT PROMPT",
      "CHILD PROMPT",
      "PARENT PROMPT",
    ]);
    expect(glove.model).toBe(shared);
    expect(glove.getSystemPrompt()).toBe("PARENT PROMPT");
  });
});
