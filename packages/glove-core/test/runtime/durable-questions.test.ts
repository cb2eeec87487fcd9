/**
 * Durable human-in-the-loop, embedded: a question stored by one Glove outlives it, and another
 * Glove over the same store lists it and answers it; the turn resumes there, the tool runs again
 * and meets its recorded answers, and what follows a wait (or sits in a recorded step) runs once.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Glove, MemoryStore, SlotAnswerError, type StoreAdapter, type SubscriberEvent } from "glove-core";
import { ScriptedModel } from "glove-core/testing";

const form = { toolCalls: [{ name: "book_table", input: { restaurant: "Chez Ada" }, id: "call-1" }] };

interface World {
  charges: number;
  booked: string[];
  runs: number;
}

/** A Glove as an app builds it: a form tool that charges a deposit first (a recorded step), then asks. */
function agent(
  store: StoreAdapter,
  world: World,
  script: ConstructorParameters<typeof ScriptedModel>[0],
  options: { durable?: boolean; tool?: boolean } = {},
) {
  const glove = new Glove({ store, model: new ScriptedModel(script), systemPrompt: "Book tables." });
  if (options.tool !== false) {
    glove.fold({
      name: "book_table",
      description: "Books a table after asking for the guest's name.",
      inputSchema: z.object({ restaurant: z.string() }),
      resolveSchema: z.object({ name: z.string().min(1) }),
      ...(options.durable === false ? { durable: false } : {}),
      async do(input, display) {
        world.runs++;
        await display.step("deposit", () => ++world.charges);
        const answer = await display.pushAndWait<unknown, { name: string }>({
          input: { restaurant: input.restaurant },
        });
        world.booked.push(`${answer.name}@${input.restaurant}`);
        return { status: "success", data: `Booked for ${answer.name}` };
      },
    });
  }
  return glove.build();
}

/** Starts a request that stops at the form; resolves once the question is stored and shown. */
function askAndAbandon(glove: Glove, store: StoreAdapter): Promise<string> {
  void glove.processRequest("Book Chez Ada").catch(() => undefined);
  return questionShown(glove, store);
}

/** The id of the question once it is stored and on the display stack. */
async function questionShown(glove: Glove, store: StoreAdapter): Promise<string> {
  for (;;) {
    const pending = (await store.getWaits?.({ status: "pending" })) ?? [];
    if (pending.length > 0 && glove.displayManager.stack.length > 0) return pending[0]!.id;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("durable questions on one store (embedded)", () => {
  it("stores the question before it is shown, and the answer before the tool wakes", async () => {
    const store = new MemoryStore("s1");
    const world: World = { charges: 0, booked: [], runs: 0 };
    const glove = agent(store, world, [form, { text: "Booked." }]);
    const seen: string[] = [];
    glove.displayManager.subscribe(async (stack) => {
      for (const slot of stack)
        seen.push(`${slot.id}:${(await store.getWaits!({ status: "pending" })).some((w) => w.id === slot.id)}`);
    });
    const result = glove.processRequest("Book Chez Ada");
    const slotId = await questionShown(glove, store);
    expect(seen).toContain(`${slotId}:true`);
    const statusWhenWoken: string[] = [];
    glove.displayManager.subscribe(async () => {
      statusWhenWoken.push(...(await store.getWaits!()).map((w) => w.status));
    });
    await glove.resolveSlot(slotId, { name: "Grace" });
    expect((await result).text).toBe("Booked.");
    const waits = await store.getWaits!();
    expect(waits.map((w) => [w.kind, w.status, w.position])).toEqual([
      ["step", "resolved", 0],
      ["question", "resolved", 1],
    ]);
    expect(waits[1]!.value).toEqual({ name: "Grace" });
    expect(world).toMatchObject({ charges: 1, booked: ["Grace@Chez Ada"] });
  });

  it("a Glove built later over the same store lists the question and resumes the turn when it is answered", async () => {
    const store = new MemoryStore("s2");
    const world: World = { charges: 0, booked: [], runs: 0 };
    const first = agent(store, world, [form]);
    const slotId = await askAndAbandon(first, store);
    // The first process is gone (its Glove is never used again); a webhook handler builds a new one.
    const second = agent(store, world, [{ text: "Your table is booked, Grace." }]);
    const events: SubscriberEvent["type"][] = [];
    second.addSubscriber({ record: (type, _data) => void events.push(type) });
    const pending = await second.pendingSlots();
    expect(pending).toEqual([
      expect.objectContaining({
        id: slotId,
        toolName: "book_table",
        toolCallId: "call-1",
        renderer: "book_table",
        input: { restaurant: "Chez Ada" },
      }),
    ]);
    // An answer that fails the tool's resolveSchema: refused, the question keeps waiting.
    const invalid = await second.resolveSlot(slotId, { name: "" }).catch((error: unknown) => error);
    expect(SlotAnswerError.isInstance(invalid) && invalid.reason).toBe("invalid");
    expect((await second.pendingSlots()).map((q) => q.id)).toEqual([slotId]);

    const resumed = await second.resolveSlot(slotId, { name: "Grace" });
    expect(resumed?.text).toBe("Your table is booked, Grace.");
    expect(events).toContain("turn_resumed");
    // The tool ran again with the same input and call id; the deposit ran once, the booking once.
    expect(world).toEqual({ charges: 1, booked: ["Grace@Chez Ada"], runs: 2 });
    expect(second.displayManager.stack).toEqual([]);
    const history = await store.getMessages();
    const results = history.flatMap((m) => m.tool_results ?? []);
    expect(results).toEqual([
      expect.objectContaining({
        call_id: "call-1",
        result: expect.objectContaining({ status: "success", data: "Booked for Grace" }),
      }),
    ]);
    expect(await second.pendingSlots()).toEqual([]);
    // The first answer won: a second one is refused and changes nothing.
    const late = await second.resolveSlot(slotId, { name: "Ada" }).catch((error: unknown) => error);
    expect(SlotAnswerError.isInstance(late) && late.reason).toBe("already_answered");
    expect(world.booked).toEqual(["Grace@Chez Ada"]);
  });

  it("a stored question can be refused: the tool's wait fails with the reason, once", async () => {
    const store = new MemoryStore("s9");
    const world: World = { charges: 0, booked: [], runs: 0 };
    const slotId = await askAndAbandon(agent(store, world, [form]), store);
    const second = agent(store, world, [{ text: "Not booked." }]);
    expect((await second.rejectSlot(slotId, "no thanks"))?.text).toBe("Not booked.");
    const result = (await store.getMessages()).flatMap((m) => m.tool_results ?? [])[0]!.result;
    expect(result.status).toBe("error");
    expect(String(result.message)).toMatch(/no thanks/);
    expect(world.booked).toEqual([]);
    expect((await store.getWaits!()).find((w) => w.id === slotId)).toMatchObject({
      status: "rejected",
      value: "no thanks",
    });
  });

  it("two processes answering at once: one answer wins, the tool finishes once", async () => {
    const store = new MemoryStore("s3");
    const world: World = { charges: 0, booked: [], runs: 0 };
    const slotId = await askAndAbandon(agent(store, world, [form]), store);
    const a = agent(store, world, [{ text: "Done (a)." }]);
    const b = agent(store, world, [{ text: "Done (b)." }]);
    const outcomes = await Promise.allSettled([
      a.resolveSlot(slotId, { name: "Ann" }),
      b.resolveSlot(slotId, { name: "Bob" }),
    ]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
    expect(SlotAnswerError.isInstance(refused.reason) && refused.reason.reason).toBe("already_answered");
    expect(world.booked).toHaveLength(1);
    expect(world.charges).toBe(1);
  });

  it("a permission prompt is a stored question too: answered later, the tool runs once", async () => {
    const store = new MemoryStore("s4");
    let deleted = 0;
    const build = (script: ConstructorParameters<typeof ScriptedModel>[0]) =>
      new Glove({ store, model: new ScriptedModel(script), systemPrompt: "Files." })
        .fold({
          name: "delete_file",
          description: "Deletes a file.",
          inputSchema: z.object({ path: z.string() }),
          requiresPermission: true,
          async do() {
            deleted++;
            return "deleted";
          },
        })
        .build();
    const first = build([{ toolCalls: [{ name: "delete_file", input: { path: "/tmp/x" }, id: "del-1" }] }]);
    const slotId = await askAndAbandon(first, store);
    const second = build([{ text: "Deleted." }]);
    const [question] = await second.pendingSlots();
    expect(question).toMatchObject({ id: slotId, renderer: "permission_request", toolName: "delete_file" });
    expect((await second.resolveSlot(slotId, true))?.text).toBe("Deleted.");
    expect(deleted).toBe(1);
  });

  it("a tool folded with durable: false keeps its question in memory only", async () => {
    const store = new MemoryStore("s5");
    const world: World = { charges: 0, booked: [], runs: 0 };
    const glove = agent(store, world, [form], { durable: false });
    void glove.processRequest("Book").catch(() => undefined);
    while (glove.displayManager.stack.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await store.getWaits!()).toEqual([]);
    expect(await agent(store, world, []).pendingSlots()).toEqual([]);
  });

  it("an abort cancels the stored question; answering it then is refused", async () => {
    const store = new MemoryStore("s6");
    const world: World = { charges: 0, booked: [], runs: 0 };
    const glove = agent(store, world, [form]);
    const controller = new AbortController();
    const run = glove.processRequest("Book", controller.signal).catch((error: unknown) => error);
    let slotId: string | undefined;
    while (!slotId) {
      slotId = (await store.getWaits!({ status: "pending" }))[0]?.id;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    while (glove.displayManager.stack.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await run;
    expect((await store.getWaits!()).find((w) => w.id === slotId)?.status).toBe("cancelled");
    const refused = await agent(store, world, [])
      .resolveSlot(slotId, { name: "Late" })
      .catch((error: unknown) => error);
    expect(SlotAnswerError.isInstance(refused)).toBe(true);
    expect(world.booked).toEqual([]);
  });

  it("a stored question whose tool no longer exists: the answer is taken and the call ends with a clear error result", async () => {
    const store = new MemoryStore("s7");
    const world: World = { charges: 0, booked: [], runs: 0 };
    const slotId = await askAndAbandon(agent(store, world, [form]), store);
    const without = agent(store, world, [{ text: "Sorry, I cannot book any more." }], { tool: false });
    expect((await without.resolveSlot(slotId, { name: "Grace" }))?.text).toBe("Sorry, I cannot book any more.");
    const results = (await store.getMessages()).flatMap((m) => m.tool_results ?? []);
    expect(results).toHaveLength(1);
    expect(results[0]!.result).toMatchObject({ status: "error" });
    expect(String(results[0]!.result.message)).toMatch(/Unknown tool "book_table"/);
  });

  it("a tool that asks in another order when it runs again fails clearly instead of taking the wrong answer", async () => {
    const store = new MemoryStore("s8");
    let round = 0;
    const build = (script: ConstructorParameters<typeof ScriptedModel>[0]) =>
      new Glove({ store, model: new ScriptedModel(script), systemPrompt: "x" })
        .fold({
          name: "fickle",
          description: "Asks, but not the same way twice.",
          inputSchema: z.object({}),
          async do(_input, display) {
            if (round++ > 0) await display.step("surprise", () => 1);
            return String(await display.pushAndWait({ input: {} }));
          },
        })
        .build();
    const slotId = await askAndAbandon(build([{ toolCalls: [{ name: "fickle", input: {}, id: "f-1" }] }]), store);
    await build([{ text: "ok" }]).resolveSlot(slotId, "yes");
    const result = (await store.getMessages()).flatMap((m) => m.tool_results ?? [])[0]!.result;
    expect(result.status).toBe("error");
    expect(String(result.message)).toMatch(/same order/);
  });
});
