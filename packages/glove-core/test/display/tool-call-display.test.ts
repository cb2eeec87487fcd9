import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Displaymanager } from "../../src/display/display-manager.js";
import { Glove } from "../../src/glove.js";
import { MemoryStore } from "../../src/stores/memory-store.js";
import { ScriptedModel } from "../../src/testing/scripted-model.js";
import type { Slot } from "../../src/types/index.js";
import { PROMPT_WAIT_MS } from "../../../../test-support/timeouts.js";

function agent(model: ScriptedModel, dm: Displaymanager) {
  return new Glove({
    model,
    displayManager: dm,
    store: new MemoryStore("s"),
    systemPrompt: "test",
    compaction_config: { compaction_instructions: "sum" },
  });
}

/** Waits until the stack holds `count` slots. */
async function stackOf(dm: Displaymanager, count: number): Promise<Slot<unknown>[]> {
  for (const end = Date.now() + PROMPT_WAIT_MS; Date.now() < end && dm.stack.length < count;)
    await new Promise((r) => setTimeout(r, 5));
  return dm.stack;
}

describe("slots pushed by tool calls", () => {
  it("carry the id and name of the call that pushed them, also for two calls of one turn", async () => {
    const dm = new Displaymanager();
    const model = new ScriptedModel([
      {
        toolCalls: [
          { name: "ask", input: { q: "a" }, id: "call_a" },
          { name: "ask", input: { q: "b" }, id: "call_b" },
        ],
      },
      { text: "done" },
    ]);
    const glove = agent(model, dm)
      .fold({
        name: "ask",
        description: "asks",
        inputSchema: z.object({ q: z.string() }),
        displayStrategy: "hide-on-complete",
        do: async (input, display) => display.pushAndWait({ input }),
      })
      .build();

    const run = glove.processRequest("go");
    const slots = await stackOf(dm, 2);
    expect(
      slots.map((s) => [s.toolCallId, s.toolName, s.renderer, s.displayStrategy, (s.input as { q: string }).q]).sort(),
    ).toEqual([
      ["call_a", "ask", "ask", "hide-on-complete", "a"],
      ["call_b", "ask", "ask", "hide-on-complete", "b"],
    ]);
    for (const slot of slots) dm.resolve(slot.id, `answer ${(slot.input as { q: string }).q}`);
    await run;
    const results = (await glove.store.getMessages()).flatMap((m) => m.tool_results ?? []);
    expect(results.map((r) => [r.call_id, r.result.data])).toEqual([
      ["call_a", "answer a"],
      ["call_b", "answer b"],
    ]);
  });

  it("checks answers against the tool's resolve schema without settling the slot", async () => {
    const dm = new Displaymanager();
    const model = new ScriptedModel([{ toolCalls: [{ name: "form", input: {}, id: "c1" }] }, { text: "ok" }]);
    const glove = agent(model, dm)
      .fold({
        name: "form",
        description: "a form",
        resolveSchema: z.object({ age: z.number().int() }),
        do: async (_input, display) => display.pushAndWait({ input: { title: "Age?" } }),
      })
      .build();
    const run = glove.processRequest("go");
    const [slot] = await stackOf(dm, 1);
    const bad = dm.checkAnswer(slot!.id, { age: "old" });
    expect(bad).toMatchObject({ ok: false, reason: "invalid", issues: [{ path: "age" }] });
    expect(dm.stack).toHaveLength(1);
    expect(dm.checkAnswer("nope", {})).toMatchObject({ ok: false, reason: "unknown_slot" });
    expect(dm.checkAnswer(slot!.id, { age: 41 })).toEqual({ ok: true, value: { age: 41 } });
    dm.resolve(slot!.id, { age: 41 });
    await run;
    const results = (await glove.store.getMessages()).flatMap((m) => m.tool_results ?? []);
    expect(results[0]?.result.data).toEqual({ age: 41 });
  });

  it("aborting a request takes down the slot the tool waits on, with its resolver", async () => {
    const dm = new Displaymanager();
    const model = new ScriptedModel([{ toolCalls: [{ name: "confirm", input: {}, id: "c1" }] }]);
    const glove = agent(model, dm)
      .fold({
        name: "confirm",
        description: "confirm",
        do: async (_input, display) => display.pushAndWait({ input: "sure?" }),
      })
      .build();
    const controller = new AbortController();
    const run = glove.processRequest("go", controller.signal);
    await stackOf(dm, 1);
    controller.abort();
    await expect(run).rejects.toMatchObject({ name: "AbortError" });
    expect(dm.stack).toEqual([]);
    expect(dm.resolverStore.size).toBe(0);
    const results = (await glove.store.getMessages()).flatMap((m) => m.tool_results ?? []);
    expect(results.map((r) => r.result.status)).toEqual(["aborted"]);
  });

  it("tags permission prompts with the call they guard", async () => {
    const dm = new Displaymanager();
    const model = new ScriptedModel([{ toolCalls: [{ name: "wipe", input: {}, id: "c9" }] }, { text: "ok" }]);
    const glove = agent(model, dm)
      .fold({
        name: "wipe",
        description: "wipe",
        requiresPermission: true,
        do: async () => "wiped",
      })
      .build();
    const run = glove.processRequest("go");
    const [slot] = await stackOf(dm, 1);
    expect(slot).toMatchObject({ renderer: "permission_request", toolName: "wipe", toolCallId: "c9" });
    dm.resolve(slot!.id, true);
    await run;
  });
});
