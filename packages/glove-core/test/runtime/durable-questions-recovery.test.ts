/**
 * Durable questions at the edges of a crash (embedded, one MemoryStore): an answer given while the
 * slot is being shown is stored; an answer that landed in the store just before the process died
 * is not lost (continueTurn runs the call again with it); what the tool saw and what a replay
 * gets back are the same value (a transforming schema runs once).
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Glove, MemoryStore, type StoreAdapter } from "glove-core";
import { ScriptedModel, type ScriptedTurn } from "glove-core/testing";

interface Effects {
  deposits: number;
  booked: string[];
}

const call = { toolCalls: [{ name: "book", input: {}, id: "call-1" }] };
const report = (request: {
  messages: Array<{ tool_results?: Array<{ result: { status: string; data?: unknown } }> }>;
}): ScriptedTurn => {
  const result = request.messages.at(-1)?.tool_results?.[0]?.result;
  return { text: `${result?.status}: ${String(result?.data)}` };
};

/** A booking tool: a deposit (a step), the guest's name (its schema upper-cases it), then the booking. */
function booking(
  store: StoreAdapter,
  effects: Effects,
  script: ScriptedTurn[],
  options: { durable?: boolean; questions?: number } = {},
): Glove {
  return new Glove({ store, model: new ScriptedModel(script, { fallback: report }), systemPrompt: "Book tables." })
    .fold({
      name: "book",
      description: "Books a table.",
      inputSchema: z.object({}),
      resolveSchema: z.string().transform((name) => name.toUpperCase()),
      ...(options.durable === false ? { durable: false } : {}),
      async do(_input, display) {
        await display.step("deposit", () => ++effects.deposits);
        const names: string[] = [];
        for (let i = 0; i < (options.questions ?? 1); i++)
          names.push(await display.pushAndWait<unknown, string>({ input: { guest: i } }));
        effects.booked.push(names.join("+"));
        return names.join("+");
      },
    })
    .build();
}

async function until<T>(probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const pendingQuestion = (store: MemoryStore) => until(async () => (await store.getWaits({ status: "pending" }))[0]);

describe("durable questions around a crash", () => {
  it("a UI that answers while the slot is being shown: the answer is stored before the tool goes on", async () => {
    const store = new MemoryStore("sync-ui");
    const effects: Effects = { deposits: 0, booked: [] };
    const glove = booking(store, effects, [call]);
    // Answers inside the display's notification, before pushAndWait has returned.
    glove.displayManager.subscribe((stack) => {
      for (const slot of stack) glove.displayManager.resolve(slot.id, "grace");
    });
    const result = await glove.processRequest("Book.");
    expect(result.text).toBe("success: GRACE");
    expect((await store.getWaits()).map((w) => [w.kind, w.status, w.value])).toEqual([
      ["step", "resolved", 1],
      ["question", "resolved", "GRACE"],
    ]);
  });

  it("an answer stored just before the process died is not lost: continueTurn runs the call again with it", async () => {
    const store = new MemoryStore("answered-then-died");
    const effects: Effects = { deposits: 0, booked: [] };
    void booking(store, effects, [call])
      .processRequest("Book.")
      .catch(() => undefined);
    const question = await pendingQuestion(store);
    // The answer lands in the store; the process dies before its tool wakes (it is never used again).
    await store.settleWait(question.id, { status: "resolved", value: "GRACE", settled_at: new Date().toISOString() });

    const next = booking(store, effects, []);
    expect(await next.pendingSlots()).toEqual([]);
    expect((await next.continueTurn()).text).toBe("success: GRACE");
    expect(effects).toEqual({ deposits: 1, booked: ["GRACE"] });
    const results = (await store.getMessages()).flatMap((m) => m.tool_results ?? []);
    expect(results.map((r) => [r.call_id, r.result.status])).toEqual([["call-1", "success"]]);
  });

  it.each([
    ["a durable call whose question still waits (answer it with resolveSlot instead)", true],
    ["a call of a tool folded durable: false", false],
  ])("continueTurn answers as interrupted %s", async (_label, durable) => {
    const store = new MemoryStore(`interrupted-${durable}`);
    const effects: Effects = { deposits: 0, booked: [] };
    const first = booking(store, effects, [call], { durable });
    void first.processRequest("Book.").catch(() => undefined);
    await until(() => (first.displayManager.stack.length > 0 ? true : undefined));
    // The process dies while its question is shown.
    const next = booking(store, effects, []);
    expect((await next.continueTurn()).text).toMatch(/^aborted: /);
    expect(effects).toEqual({ deposits: 1, booked: [] });
  });

  it("the value a replay gets back is the one the tool saw: a transforming schema runs once", async () => {
    const store = new MemoryStore("transform");
    const effects: Effects = { deposits: 0, booked: [] };
    const first = booking(store, effects, [call], { questions: 2 });
    void first.processRequest("Book.").catch(() => undefined);
    // The first guest is answered live; the process dies while the second question waits.
    const firstQuestion = await pendingQuestion(store);
    await first.resolveSlot(firstQuestion.id, "grace");
    const second = await until(async () =>
      (await store.getWaits({ status: "pending" })).find((w) => w.id !== firstQuestion.id),
    );
    const next = booking(store, effects, [], { questions: 2 });
    expect((await next.resolveSlot(second.id, "ada"))?.text).toBe("success: GRACE+ADA");
    expect(effects).toEqual({ deposits: 1, booked: ["GRACE+ADA"] });
  });
});
