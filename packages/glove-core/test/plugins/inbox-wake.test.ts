/**
 * `inbox: { wake: true }`: a resolved answer starts a turn of its own (`deliverInbox`) instead of
 * waiting for the next message, and reaches the model exactly once however many Gloves (processes)
 * over the store deliver it: each answer is claimed first (resolved → consumed, first claim wins).
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigurationError, Glove, INBOX_TOOL_NAME, MemoryStore, type InboxItem, type StoreAdapter } from "glove-core";
import { ScriptedModel, type ScriptedStep } from "glove-core/testing";

const RESOLVED_AT = "2026-02-01T10:00:00.000Z";

function agent(store: StoreAdapter, script: ScriptedStep[], wake = true): { glove: Glove; model: ScriptedModel } {
  const model = new ScriptedModel(script);
  const glove = new Glove({ store, model, systemPrompt: "You sell coffee.", inbox: { wake } }).build();
  return { glove, model };
}

/** A conversation whose agent posted one item (a Glove that has since gone away). */
async function posted(store: MemoryStore): Promise<InboxItem> {
  const { glove } = agent(store, [
    { toolCalls: [{ name: INBOX_TOOL_NAME, input: { tag: "oat_milk", request: "When is oat milk back?" } }] },
    { text: "I asked the supplier." },
  ]);
  await glove.processRequest("Do you have oat milk?");
  return (await store.getInboxItems())[0]!;
}

/** "A webhook" answers through the store only. */
async function resolve(store: MemoryStore, item: InboxItem, response = "Back on Tuesday."): Promise<void> {
  await store.updateInboxItem(item.id, { status: "resolved", response, resolved_at: RESOLVED_AT });
}

async function postedAndResolved(store: MemoryStore, response?: string): Promise<InboxItem> {
  const item = await posted(store);
  await resolve(store, item, response);
  return item;
}

const inboxMessages = async (store: StoreAdapter) =>
  (await store.getMessages()).filter((m) => m.text.startsWith("[Inbox]"));

describe("inbox: { wake: true }", () => {
  it("deliverInbox runs a turn whose input is the resolved answer, marks it consumed, and a second call delivers nothing", async () => {
    const store = new MemoryStore("wake-once");
    const item = await postedAndResolved(store);
    const { glove, model } = agent(store, [
      { text: "Good news: oat milk is back on Tuesday." },
      { text: "(not played)" },
    ]);
    expect(glove.wakesOnInbox).toBe(true);

    const claimed: InboxItem[][] = [];
    const result = await glove.deliverInbox({ onClaimed: (items) => claimed.push(items) });
    expect(result?.text).toBe("Good news: oat milk is back on Tuesday.");
    expect(claimed).toEqual([
      [{ ...item, status: "consumed", response: "Back on Tuesday.", resolved_at: RESOLVED_AT }],
    ]);
    expect(model.requests).toHaveLength(1);
    const last = model.requests[0]!.messages.at(-1)!;
    expect(last.sender).toBe("user");
    expect(last.text).toContain("Back on Tuesday.");
    expect((await store.getInboxItems())[0]?.status).toBe("consumed");
    expect(await inboxMessages(store)).toHaveLength(1);
    expect((await store.getMessages()).at(-1)?.text).toBe("Good news: oat milk is back on Tuesday.");

    expect(await glove.deliverInbox()).toBeUndefined();
    expect(model.requests).toHaveLength(1);
    expect(await inboxMessages(store)).toHaveLength(1);
  });

  it("of two Gloves over one store delivering at once, exactly one runs the turn", async () => {
    const store = new MemoryStore("wake-race");
    await postedAndResolved(store);
    const a = agent(store, [{ text: "A delivered." }]);
    const b = agent(store, [{ text: "B delivered." }]);
    const results = await Promise.all([a.glove.deliverInbox(), b.glove.deliverInbox()]);
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    expect(a.model.requests.length + b.model.requests.length).toBe(1);
    expect(await inboxMessages(store)).toHaveLength(1);
  });

  it("a request claims answers too: what deliverInbox delivered never reaches a later request again, and the other way round", async () => {
    const store = new MemoryStore("wake-request");
    await postedAndResolved(store, "First answer.");
    const { glove, model } = agent(store, [
      { text: "Delivered." },
      { text: "Hello again." },
      { text: "Second delivered." },
    ]);
    await glove.deliverInbox();
    await glove.processRequest("hi");
    expect(model.requests[1]!.messages.filter((m) => m.text.includes("First answer."))).toHaveLength(1);

    // Resolved again, and delivered by a message (another Glove) before any wake: the wake finds nothing.
    await resolve(store, (await store.getInboxItems())[0]!, "Second answer.");
    const other = agent(store, [{ text: "Seen in a request." }]);
    await other.glove.processRequest("anything new?");
    expect(other.model.requests[0]!.messages.some((m) => m.text.includes("Second answer."))).toBe(true);
    expect(await glove.deliverInbox()).toBeUndefined();
    expect(model.requests).toHaveLength(2);
    expect((await inboxMessages(store)).map((m) => m.text.includes("Second answer."))).toEqual([false, true]);
  });

  it("waits while a stored question waits for a person: nothing is claimed until that turn is answered", async () => {
    const store = new MemoryStore("wake-waiting");
    const item = await posted(store);
    const asking = new Glove({
      store,
      model: new ScriptedModel([{ toolCalls: [{ name: "ask_name", input: {}, id: "ask-1" }] }]),
      systemPrompt: "Ask.",
    });
    asking.fold({
      name: "ask_name",
      description: "Asks the guest's name.",
      inputSchema: z.object({}),
      do: async (_input, display) =>
        `Hello ${(await display.pushAndWait<unknown, { name: string }>({ input: {} })).name}`,
    });
    void asking
      .build()
      .processRequest("book")
      .catch(() => undefined);
    while ((await store.getWaits({ status: "pending" })).length === 0)
      await new Promise((resolve) => setTimeout(resolve, 5));
    await resolve(store, item);

    const { glove, model } = agent(store, [{ text: "Hello Ada." }, { text: "The oat milk answer." }]);
    expect(await glove.deliverInbox()).toBeUndefined();
    expect((await store.getInboxItems())[0]?.status).toBe("resolved");
    const [question] = await glove.pendingSlots();
    await glove.resolveSlot(question!.id, { name: "Ada" });
    expect((await glove.deliverInbox())?.text).toBe("The oat milk answer.");
    expect(model.requests).toHaveLength(2);
  });

  it("is off by default: deliverInbox refuses, a request delivers as before; a store that cannot claim is refused at build", async () => {
    const store = new MemoryStore("wake-off");
    await postedAndResolved(store);
    const { glove } = agent(store, [{ text: "ok" }], false);
    expect(glove.wakesOnInbox).toBe(false);
    await expect(glove.deliverInbox()).rejects.toBeInstanceOf(ConfigurationError);
    expect((await store.getInboxItems())[0]?.status).toBe("resolved");

    class NoClaim extends MemoryStore {}
    (NoClaim.prototype as Partial<MemoryStore>).consumeInboxItem = undefined;
    expect(() => agent(new NoClaim("no-claim"), [])).toThrow(
      /inbox: \{ wake: true \} needs a store with consumeInboxItem/,
    );
    const noInbox = new Glove({
      model: new ScriptedModel([]),
      systemPrompt: "x",
      inbox: { wake: true },
      builtIns: { inbox: false },
    }).build();
    expect(noInbox.wakesOnInbox).toBe(false);
  });
});
