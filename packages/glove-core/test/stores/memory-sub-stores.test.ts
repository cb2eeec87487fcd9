import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../src/stores/memory-store.js";
import type { Message } from "../../src/types/index.js";

const user = (text: string): Message => ({ sender: "user", text });

describe("MemoryStore sub-agent stores", () => {
  it("non-durable sub-stores are fresh on every call and namespaced", async () => {
    const store = new MemoryStore("parent");
    const first = await store.createSubAgentStore("reviewer");
    await first.appendMessages([user("hello")]);
    const second = await store.createSubAgentStore("reviewer", false);

    // As in the SQL stores: a new identifier per call, so two runs of a subagent never share one.
    expect(first.identifier).toMatch(/^parent::reviewer~[0-9a-f-]{36}$/);
    expect(second.identifier).toMatch(/^parent::reviewer~[0-9a-f-]{36}$/);
    expect(second.identifier).not.toBe(first.identifier);
    expect(second).not.toBe(first);
    expect(await second.getMessages()).toEqual([]);
    expect(await store.getMessages()).toEqual([]);
  });

  it("durable sub-stores are the same instance per namespace and keep history", async () => {
    const store = new MemoryStore("parent");
    const planner = await store.createSubAgentStore("planner", true);
    await planner.appendMessages([user("remember me")]);
    const again = await store.createSubAgentStore("planner", true);
    const other = await store.createSubAgentStore("coder", true);

    expect(again).toBe(planner);
    expect(await again.getMessages()).toEqual([user("remember me")]);
    expect(other).not.toBe(planner);
    expect(other.identifier).toBe("parent::coder");
    expect(await other.getMessages()).toEqual([]);
    // A non-durable call for the same namespace does not hand out the durable store.
    expect(await store.createSubAgentStore("planner")).not.toBe(planner);
  });

  it("sub-stores are full MemoryStores with every optional capability", async () => {
    const child = await new MemoryStore("p").createSubAgentStore("x");
    expect(child).toBeInstanceOf(MemoryStore);
    const grandchild = await child.createSubAgentStore!("y", true);
    expect(grandchild.identifier).toBe(`${child.identifier}::y`);
  });
});
