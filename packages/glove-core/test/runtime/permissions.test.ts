import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AbortError, MemoryStore, PERMISSION_REQUEST_RENDERER, type StoreAdapter } from "glove-core";
import { makeGlove } from "../support/make-glove.js";

function gatedGlove(config: Parameters<typeof makeGlove>[1] = {}) {
  let runs = 0;
  const t = makeGlove(
    [{ toolCalls: [{ name: "delete_all", input: { scope: "everything" } }] }, { text: "done" }],
    config,
  );
  t.glove.fold({
    name: "delete_all",
    description: "dangerous",
    requiresPermission: true,
    async do() {
      runs++;
      return "deleted";
    },
  });
  const result = async () => (await t.store.getMessages()).find((m) => m.tool_results)!.tool_results![0]!.result;
  return { ...t, runs: () => runs, result };
}

describe("permissions fail closed (decision 12)", () => {
  it("granted in the store: runs", async () => {
    const store = new MemoryStore("p");
    await store.setPermission("delete_all", "granted");
    const t = gatedGlove({ store });
    await t.glove.processRequest("go");
    expect(t.runs()).toBe(1);
    expect((await t.result()).status).toBe("success");
  });

  it("denied in the store: does not run, error result says so", async () => {
    const store = new MemoryStore("p");
    await store.setPermission("delete_all", "denied");
    const t = gatedGlove({ store });
    await t.glove.processRequest("go");
    expect(t.runs()).toBe(0);
    expect((await t.result()).message).toMatch(/denied/);
  });

  it("unset: asks through a permission_request slot; 'remember' stores the answer", async () => {
    const t = gatedGlove();
    const asked: unknown[] = [];
    t.dm.subscribe((stack) => {
      const slot = stack.find((s) => s.renderer === PERMISSION_REQUEST_RENDERER);
      if (slot) {
        asked.push(slot.input);
        t.dm.resolve(slot.id, { granted: true, remember: true });
      }
    });
    await t.glove.processRequest("go");
    expect(asked).toEqual([{ tool_name: "delete_all", input: { scope: "everything" }, call_id: expect.any(String) }]);
    expect(t.runs()).toBe(1);
    expect(await t.store.getPermission!("delete_all")).toBe("granted");
  });

  it("unset: the user saying no means the tool does not run", async () => {
    const t = gatedGlove();
    t.dm.subscribe((stack) => {
      const slot = stack.find((s) => s.renderer === PERMISSION_REQUEST_RENDERER);
      if (slot) t.dm.resolve(slot.id, false);
    });
    await t.glove.processRequest("go");
    expect(t.runs()).toBe(0);
    expect((await t.result()).message).toMatch(/declined/);
    expect(await t.store.getPermission!("delete_all")).toBe("unset");
  });

  it("serverMode with no policy denies with a clear message and shows no prompt", async () => {
    const t = gatedGlove({ serverMode: true });
    let prompts = 0;
    t.dm.subscribe(() => {
      prompts++;
    });
    await t.glove.processRequest("go");
    expect(t.runs()).toBe(0);
    expect(prompts).toBe(0);
    expect((await t.result()).message).toMatch(/no UI to ask \(serverMode\).*permissionPolicy/);
  });

  it("serverMode with a policy follows the policy", async () => {
    const seen: unknown[] = [];
    const t = gatedGlove({
      serverMode: true,
      permissionPolicy: (name, input) => {
        seen.push([name, input]);
        return "granted";
      },
    });
    await t.glove.processRequest("go");
    expect(t.runs()).toBe(1);
    expect(seen).toEqual([["delete_all", { scope: "everything" }]]);
  });

  it("a store without permission methods never means granted", async () => {
    const base = new MemoryStore("np");
    const store: StoreAdapter = {
      identifier: "no-permissions",
      getMessages: () => base.getMessages(),
      appendMessages: (m) => base.appendMessages(m),
      getTokenCount: () => base.getTokenCount(),
      addTokens: (a) => base.addTokens(a),
      getTurnCount: () => base.getTurnCount(),
      incrementTurn: () => base.incrementTurn(),
      resetCounters: () => base.resetCounters(),
    };
    const t = gatedGlove({ store, serverMode: true });
    await t.glove.processRequest("go");
    expect(t.runs()).toBe(0);
  });

  it("is checked after input validation: invalid input never prompts", async () => {
    const t = makeGlove([{ toolCalls: [{ name: "g", input: "{not json" }] }, { text: "" }]);
    let prompts = 0;
    t.dm.subscribe(() => {
      prompts++;
    });
    t.glove.fold({ name: "g", description: "g", requiresPermission: true, do: async () => "x" });
    await t.glove.processRequest("go");
    expect(prompts).toBe(0);
  });

  it("abort while the prompt is open takes the prompt down and rejects with AbortError", async () => {
    const t = gatedGlove();
    const controller = new AbortController();
    t.dm.subscribe((stack) => {
      if (stack.length) setTimeout(() => controller.abort(), 1);
    });
    await expect(t.glove.processRequest("go", controller.signal)).rejects.toBeInstanceOf(AbortError);
    expect(t.dm.stack).toHaveLength(0);
    expect(t.runs()).toBe(0);
    expect((await t.result()).status).toBe("aborted");
  });

  it("abort takes the prompt down even when a registered renderer stores a parsed copy of the input", async () => {
    const t = gatedGlove();
    t.dm.registerRenderer({
      name: PERMISSION_REQUEST_RENDERER,
      inputSchema: z.object({ tool_name: z.string(), input: z.unknown(), call_id: z.string().optional() }),
    });
    const controller = new AbortController();
    t.dm.subscribe((stack) => {
      if (stack.length) setTimeout(() => controller.abort(), 1);
    });
    await expect(t.glove.processRequest("go", controller.signal)).rejects.toBeInstanceOf(AbortError);
    expect(t.dm.stack).toHaveLength(0);
    expect(t.dm.resolverStore.size).toBe(0);
  });
});
