import { describe, expect, it } from "vitest";
import { ConfigurationError, Glove, MemoryStore, subStoreSession, type SubAgentStoreOptions } from "glove-core";
import { ScriptedModel } from "glove-core/testing";

/** createSubAgentStore(namespace, { durable }) — the options object that replaced the positional boolean. */
describe("createSubAgentStore options", () => {
  it("{ durable: true } returns the same store per namespace; { durable: false }, {} and nothing a new one per call", async () => {
    const parent = new MemoryStore("parent");
    const planner = await parent.createSubAgentStore("planner", { durable: true });
    expect(await parent.createSubAgentStore("planner", { durable: true })).toBe(planner);
    expect(planner.identifier).toBe("parent::planner");

    const ephemeral = [
      await parent.createSubAgentStore("planner", { durable: false }),
      await parent.createSubAgentStore("planner", {}),
      await parent.createSubAgentStore("planner"),
    ];
    for (const store of ephemeral) {
      expect(store).not.toBe(planner);
      expect(store.identifier).toMatch(/^parent::planner~/);
    }
    expect(new Set(ephemeral.map((s) => s.identifier)).size).toBe(3);
  });

  it("the deprecated positional boolean keeps its meaning", async () => {
    const parent = new MemoryStore("parent");
    const durable = await parent.createSubAgentStore("planner", true);
    expect(await parent.createSubAgentStore("planner", { durable: true })).toBe(durable);
    expect((await parent.createSubAgentStore("planner", false)).identifier).toMatch(/~/);
  });

  it("refuses options of the wrong shape with a ConfigurationError that shows the right one", async () => {
    const parent = new MemoryStore("parent");
    for (const options of ["yes", { durable: "yes" }, null, 1]) {
      const error = await parent
        .createSubAgentStore("planner", options as unknown as SubAgentStoreOptions)
        .catch((e: unknown) => e);
      expect(ConfigurationError.isInstance(error), JSON.stringify(options)).toBe(true);
      expect((error as Error).message).toContain("{ durable: true }");
    }
  });

  it("subStoreSession, the naming every store shares, reads either form", () => {
    const parent = { identifier: "p" };
    const newId = () => "x";
    expect(subStoreSession(parent, "ns", { durable: true }, newId)).toEqual({
      sessionId: "p::ns",
      child: { parentId: "p", namespace: "ns", durable: true },
    });
    expect(subStoreSession(parent, "ns", true, newId).sessionId).toBe("p::ns");
    expect(subStoreSession(parent, "ns", undefined, newId).sessionId).toBe("p::ns~x");
  });

  it("a subagent keeps its history across invocations on a { durable: true } sub-store", async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ name: "glove_invoke_subagent", input: { name: "notes", prompt: "remember tea" } }] },
      { text: "noted tea" },
      { text: "ok" },
      { toolCalls: [{ name: "glove_invoke_subagent", input: { name: "notes", prompt: "what do you know?" } }] },
      { text: "tea" },
      { text: "It knows tea." },
    ]);
    const glove = new Glove({ model, systemPrompt: "p" })
      .defineSubAgent({
        name: "notes",
        description: "Keeps notes.",
        factory: async ({ parentStore, displayManager }) =>
          new Glove({ model, displayManager, systemPrompt: "You keep notes." }).build(
            await parentStore.createSubAgentStore!("notes", { durable: true }),
          ),
      })
      .build();
    await glove.processRequest("first");
    await glove.processRequest("second");
    // The child's second run saw its first run's messages.
    expect(model.requests[4]!.messages.map((m) => m.text)).toEqual(["remember tea", "noted tea", "what do you know?"]);
  });
});
