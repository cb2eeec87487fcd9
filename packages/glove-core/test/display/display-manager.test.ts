import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { Displaymanager } from "../../src/display/display-manager.js";
import { DisplaySlotClosedError, DisplaySlotRejectedError, GloveError } from "../../src/errors.js";
import type { Slot } from "../../src/types/index.js";

/** Lets pending microtasks and listener notifications run. */
const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Settles a promise into a value or the error, so tests can inspect rejections directly. */
async function outcome<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  try {
    return { value: await promise };
  } catch (error) {
    return { error };
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("Displaymanager push", () => {
  it("pushAndForget adds a slot with a UUID id and the default renderer, and notifies", async () => {
    const dm = new Displaymanager();
    const seen: Slot<unknown>[][] = [];
    dm.subscribe((stack) => {
      seen.push(stack);
    });

    const id = await dm.pushAndForget({ input: { text: "hi" } });

    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(dm.stack).toEqual([{ id, renderer: "default", input: { text: "hi" } }]);
    expect(seen).toEqual([[{ id, renderer: "default", input: { text: "hi" } }]]);
  });

  it("gives every slot a distinct id and keeps push order", async () => {
    const dm = new Displaymanager();
    const a = await dm.pushAndForget({ renderer: "card", input: 1 });
    const b = await dm.pushAndForget({ renderer: "card", input: 2 });
    expect(a).not.toBe(b);
    expect(dm.stack.map((slot) => slot.input)).toEqual([1, 2]);
    expect(dm.stack[0]?.renderer).toBe("card");
  });

  it("pushAndWait resolves with the value passed to resolve and removes the slot", async () => {
    const dm = new Displaymanager();
    const stacks: number[] = [];
    dm.subscribe((stack) => {
      stacks.push(stack.length);
    });

    const waiting = dm.pushAndWait<string, string>({ renderer: "confirm", input: "ok?" });
    await flush();
    const id = dm.stack[0]!.id;
    expect(dm.resolverStore.has(id)).toBe(true);

    dm.resolve(id, "yes");
    await expect(waiting).resolves.toBe("yes");
    await flush();
    expect(dm.stack).toEqual([]);
    expect(dm.resolverStore.size).toBe(0);
    expect(stacks).toEqual([1, 0]);
  });

  it("a listener that resolves synchronously inside its callback does not hang the tool", async () => {
    const dm = new Displaymanager();
    dm.subscribe((stack) => {
      const slot = stack[0];
      if (slot) dm.resolve(slot.id, `answered ${String(slot.input)}`);
    });

    const result = await Promise.race([
      dm.pushAndWait({ input: "q" }),
      new Promise((resolve) => setTimeout(() => resolve("HUNG"), 200)),
    ]);
    expect(result).toBe("answered q");
    expect(dm.stack).toEqual([]);
  });

  it("a listener that rejects synchronously surfaces DisplaySlotRejectedError", async () => {
    const dm = new Displaymanager();
    dm.subscribe((stack) => {
      const slot = stack[0];
      if (slot) dm.reject(slot.id, "nope");
    });
    const { error } = await outcome(dm.pushAndWait({ input: "q" }));
    expect(DisplaySlotRejectedError.isInstance(error)).toBe(true);
  });
});

describe("Displaymanager reject / remove / clear", () => {
  it("reject() fails the waiter with DisplaySlotRejectedError carrying the reason, and removes the slot", async () => {
    const dm = new Displaymanager();
    const waiting = dm.pushAndWait({ input: "q" });
    await flush();
    const id = dm.stack[0]!.id;

    dm.reject(id, "user cancelled");
    const { error } = await outcome(waiting);
    expect(DisplaySlotRejectedError.isInstance(error)).toBe(true);
    expect((error as DisplaySlotRejectedError).reason).toBe("user cancelled");
    expect((error as DisplaySlotRejectedError).slotId).toBe(id);
    expect(dm.stack).toEqual([]);
  });

  it("resolve and reject of unknown ids are no-ops", async () => {
    const dm = new Displaymanager();
    const listener = vi.fn();
    const id = await dm.pushAndForget({ input: 1 });
    dm.subscribe(listener);

    expect(() => dm.resolve("missing", 1)).not.toThrow();
    expect(() => dm.reject("missing", "x")).not.toThrow();
    // A pushAndForget slot has no waiter: resolving it does nothing either.
    expect(() => dm.resolve(id, 1)).not.toThrow();
    await flush();
    expect(dm.stack.map((slot) => slot.id)).toEqual([id]);
    expect(listener).not.toHaveBeenCalled();
  });

  it("a slot settles only once: resolve after resolve is ignored", async () => {
    const dm = new Displaymanager();
    const waiting = dm.pushAndWait({ input: "q" });
    await flush();
    const id = dm.stack[0]!.id;
    dm.resolve(id, "first");
    dm.resolve(id, "second");
    dm.reject(id, "late");
    await expect(waiting).resolves.toBe("first");
  });

  it("removeSlot rejects a pending wait with DisplaySlotClosedError and notifies", async () => {
    const dm = new Displaymanager();
    const waiting = dm.pushAndWait({ input: "q" });
    const keep = await dm.pushAndForget({ input: "keep" });
    const id = dm.stack[0]!.id;
    const stacks: string[][] = [];
    dm.subscribe((stack) => {
      stacks.push(stack.map((slot) => slot.id));
    });

    dm.removeSlot(id);
    const { error } = await outcome(waiting);
    expect(DisplaySlotClosedError.isInstance(error)).toBe(true);
    expect((error as DisplaySlotClosedError).slotId).toBe(id);
    await flush();
    expect(dm.stack.map((slot) => slot.id)).toEqual([keep]);
    expect(dm.resolverStore.size).toBe(0);
    expect(stacks).toEqual([[keep]]);
  });

  it("removeSlot removes a pushAndForget slot and ignores unknown ids", async () => {
    const dm = new Displaymanager();
    const id = await dm.pushAndForget({ input: 1 });
    const listener = vi.fn();
    dm.subscribe(listener);

    dm.removeSlot("missing");
    await flush();
    expect(listener).not.toHaveBeenCalled();

    dm.removeSlot(id);
    await flush();
    expect(dm.stack).toEqual([]);
    expect(listener).toHaveBeenCalledWith([]);
  });

  it("clearStack rejects every pending wait with DisplaySlotClosedError and notifies an empty stack", async () => {
    const dm = new Displaymanager();
    const first = dm.pushAndWait({ input: 1 });
    const second = dm.pushAndWait({ input: 2 });
    await dm.pushAndForget({ input: 3 });
    const listener = vi.fn();
    dm.subscribe(listener);

    await dm.clearStack();

    const results = await Promise.all([outcome(first), outcome(second)]);
    for (const { error } of results) expect(DisplaySlotClosedError.isInstance(error)).toBe(true);
    expect(dm.stack).toEqual([]);
    expect(dm.resolverStore.size).toBe(0);
    expect(listener).toHaveBeenCalledWith([]);
  });
});

describe("Displaymanager listeners", () => {
  it("a throwing listener is isolated and logged; the others still run", async () => {
    const dm = new Displaymanager();
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const after = vi.fn();
    dm.subscribe(() => {
      throw new Error("sync boom");
    });
    dm.subscribe(async () => {
      throw new Error("async boom");
    });
    dm.subscribe(after);

    await expect(dm.pushAndForget({ input: 1 })).resolves.toEqual(expect.any(String));
    expect(after).toHaveBeenCalledTimes(1);
    expect(errors).toHaveBeenCalledTimes(2);
  });

  it("notify awaits async listeners before resolving", async () => {
    const dm = new Displaymanager();
    let done = false;
    dm.subscribe(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      done = true;
    });
    await dm.notify();
    expect(done).toBe(true);
  });

  it("listeners receive a snapshot they cannot use to mutate the manager", async () => {
    const dm = new Displaymanager();
    dm.subscribe((stack) => {
      stack.length = 0;
    });
    const seen: Slot<unknown>[][] = [];
    dm.subscribe((stack) => {
      seen.push(stack);
    });
    await dm.pushAndForget({ input: "x" });
    expect(dm.stack).toHaveLength(1);
    expect(seen[0]).toHaveLength(1);
  });

  it("unsubscribe stops further notifications", async () => {
    const dm = new Displaymanager();
    const listener = vi.fn();
    const unsubscribe = dm.subscribe(listener);
    await dm.pushAndForget({ input: 1 });
    unsubscribe();
    unsubscribe();
    await dm.pushAndForget({ input: 2 });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(dm.listeners.size).toBe(0);
  });
});

describe("Displaymanager renderers and schemas", () => {
  const amount = {
    name: "amount",
    inputSchema: z.object({ max: z.number() }),
    outputSchema: z.object({ value: z.number() }),
  };

  it("registerRenderer replaces a renderer of the same name", () => {
    const dm = new Displaymanager();
    dm.registerRenderer(amount);
    dm.registerRenderer({ name: "other", inputSchema: z.string() });
    const replacement = { name: "amount", inputSchema: z.object({ min: z.number() }) };
    dm.registerRenderer(replacement);
    expect(dm.renderers.map((renderer) => renderer.name)).toEqual(["amount", "other"]);
    expect(dm.renderers[0]).toBe(replacement);
  });

  it("rejects a push whose input fails the renderer's inputSchema, naming renderer and issue", async () => {
    const dm = new Displaymanager();
    dm.registerRenderer(amount);
    const listener = vi.fn();
    dm.subscribe(listener);

    const forget = await outcome(dm.pushAndForget({ renderer: "amount", input: { max: "ten" } }));
    expect(GloveError.isInstance(forget.error)).toBe(true);
    expect((forget.error as Error).message).toContain('"amount"');
    expect((forget.error as Error).message).toContain("max");

    const wait = await outcome(dm.pushAndWait({ renderer: "amount", input: {} }));
    expect((wait.error as Error).message).toContain("max");

    expect(dm.stack).toEqual([]);
    expect(dm.resolverStore.size).toBe(0);
    expect(listener).not.toHaveBeenCalled();
  });

  it("accepts valid input and leaves unregistered renderers unvalidated", async () => {
    const dm = new Displaymanager();
    dm.registerRenderer(amount);
    await dm.pushAndForget({ renderer: "amount", input: { max: 10 } });
    await dm.pushAndForget({ renderer: "unknown", input: { anything: true } });
    expect(dm.stack).toHaveLength(2);
  });

  it("rejects the waiter when the answer fails outputSchema, and removes the slot", async () => {
    const dm = new Displaymanager();
    dm.registerRenderer(amount);
    const waiting = dm.pushAndWait({ renderer: "amount", input: { max: 10 } });
    await flush();
    const id = dm.stack[0]!.id;

    dm.resolve(id, { value: "lots" });
    const { error } = await outcome(waiting);
    expect(GloveError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('"amount"');
    expect((error as Error).message).toContain("value");
    expect(dm.stack).toEqual([]);
  });

  it("resolves with a valid answer when outputSchema is present", async () => {
    const dm = new Displaymanager();
    dm.registerRenderer(amount);
    const waiting = dm.pushAndWait({ renderer: "amount", input: { max: 10 } });
    await flush();
    dm.resolve(dm.stack[0]!.id, { value: 7 });
    await expect(waiting).resolves.toEqual({ value: 7 });
  });
});
