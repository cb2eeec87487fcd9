import { describe, expect, it } from "vitest";
import type { Glove } from "glove-core";
import {
  INBOX_TOOL_NAME,
  MemoryStore,
  createInboxTool,
  type InboxItem,
  type InboxItemUpdate,
  type Message,
  type StoreAdapter,
  type TokenConsumptionCounter,
  type ToolResult,
} from "glove-core";
import type { ScriptedModel } from "glove-core/testing";
import { type ScriptedStep } from "glove-core/testing";
import { makeGlove } from "../support/make-glove.js";

/** Required members only, plus whichever inbox methods a test passes in. */
class PartialInboxStore implements StoreAdapter {
  private readonly messages: Message[] = [];
  constructor(
    readonly identifier: string,
    inbox: Partial<Pick<StoreAdapter, "getInboxItems" | "addInboxItem" | "updateInboxItem" | "getResolvedInboxItems">>,
  ) {
    Object.assign(this, inbox);
  }
  async getMessages(): Promise<Message[]> {
    return structuredClone(this.messages);
  }
  async appendMessages(msgs: Message[]): Promise<void> {
    this.messages.push(...structuredClone(msgs));
  }
  async getTokenCount(): Promise<number> {
    return 0;
  }
  async addTokens(_args: TokenConsumptionCounter): Promise<void> {}
  async getTurnCount(): Promise<number> {
    return 0;
  }
  async incrementTurn(): Promise<void> {}
  async resetCounters(): Promise<void> {}
}

function buildGlove(store: StoreAdapter, steps: ScriptedStep[]): { glove: Glove; model: ScriptedModel } {
  return makeGlove(steps, { store, systemPrompt: "You run a coffee shop." });
}

function post(tag: string, request: string, blocking?: boolean): ScriptedStep {
  return {
    toolCalls: [{ name: INBOX_TOOL_NAME, input: { tag, request, ...(blocking === undefined ? {} : { blocking }) } }],
  };
}

async function inboxResults(store: StoreAdapter): Promise<ToolResult[]> {
  return (await store.getMessages())
    .flatMap((m) => m.tool_results ?? [])
    .filter((r) => r.tool_name === INBOX_TOOL_NAME);
}

const names = (model: ScriptedModel, i: number) => (model.requests[i]?.tools ?? []).map((t) => t.name);

describe("glove_post_to_inbox registration", () => {
  it("is registered with a MemoryStore", async () => {
    const { glove, model } = buildGlove(new MemoryStore("s"), [{ text: "ok" }]);
    await glove.processRequest("hi");
    expect(INBOX_TOOL_NAME).toBe("glove_post_to_inbox");
    expect(names(model, 0)).toContain(INBOX_TOOL_NAME);
  });

  it("is registered only when the store has all four inbox methods", async () => {
    const backing = new MemoryStore("backing");
    const all = {
      getInboxItems: () => backing.getInboxItems(),
      addInboxItem: (item: InboxItem) => backing.addInboxItem(item),
      updateInboxItem: (id: string, u: InboxItemUpdate) => backing.updateInboxItem(id, u),
      getResolvedInboxItems: () => backing.getResolvedInboxItems(),
    };
    const complete = buildGlove(new PartialInboxStore("complete", all), [{ text: "ok" }]);
    await complete.glove.processRequest("hi");
    expect(names(complete.model, 0)).toContain(INBOX_TOOL_NAME);

    for (const missing of Object.keys(all) as Array<keyof typeof all>) {
      const { [missing]: _dropped, ...three } = all;
      const { glove, model } = buildGlove(new PartialInboxStore(`no-${missing}`, three), [{ text: "ok" }]);
      await glove.processRequest("hi");
      expect(names(model, 0), `without ${missing}`).not.toContain(INBOX_TOOL_NAME);
    }
  });
});

describe("glove_post_to_inbox through the agent loop", () => {
  it("creates a pending item, keeps the blocking flag, and tells the model the answer arrives as a later message", async () => {
    const store = new MemoryStore("shop");
    const { glove } = buildGlove(store, [
      {
        toolCalls: [
          {
            name: INBOX_TOOL_NAME,
            input: { tag: "restock_oat_milk", request: "When is oat milk back?", blocking: true },
          },
          { name: INBOX_TOOL_NAME, input: { tag: "invoice", request: "Send the invoice" } },
        ],
      },
      { text: "I've asked." },
    ]);
    await glove.processRequest("Do you have oat milk?");

    const items = await store.getInboxItems();
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({
      tag: "restock_oat_milk",
      request: "When is oat milk back?",
      status: "pending",
      blocking: true,
      response: null,
      resolved_at: null,
    });
    expect(items[1]).toMatchObject({ tag: "invoice", status: "pending", blocking: false });
    expect(typeof items[0]?.id).toBe("string");
    expect(items[0]?.id).not.toBe(items[1]?.id);
    expect(Number.isNaN(Date.parse(items[0]?.created_at ?? ""))).toBe(false);

    const results = await inboxResults(store);
    expect(results.map((r) => r.result.status)).toEqual(["success", "success"]);
    expect(results[0]?.result.data).toMatch(/later message/);
    expect(results[0]?.result.data).toContain(items[0]?.id);
  });

  it("rejects invalid input (empty tag) without creating an item", async () => {
    const store = new MemoryStore("shop");
    const { glove } = buildGlove(store, [post("", "something"), { text: "ok" }]);
    await glove.processRequest("go");
    const [result] = await inboxResults(store);
    expect(result?.result.status).toBe("error");
    expect(await store.getInboxItems()).toEqual([]);
  });

  it("injects an externally resolved answer into the next request, before the user's message, once", async () => {
    const store = new MemoryStore("shop");
    const { glove, model } = buildGlove(store, [
      post("restock_oat_milk", "When is oat milk back?", true),
      { text: "I've asked the supplier." },
      { text: "Good news: it's back." },
      { text: "You're welcome." },
    ]);
    await glove.processRequest("Do you have oat milk?");
    const [item] = await store.getInboxItems();
    // An outside party (webhook, cron, admin) answers.
    await store.updateInboxItem(item!.id, {
      status: "resolved",
      response: "Restocked on Tuesday, 40 cartons.",
      resolved_at: new Date().toISOString(),
    });

    await glove.processRequest("Any news?");
    const history = await store.getMessages();
    const newsIndex = history.findIndex((m) => m.sender === "user" && m.text === "Any news?");
    const injected = history[newsIndex - 1];
    expect(injected?.sender).toBe("user");
    expect(injected?.text).toContain("Restocked on Tuesday, 40 cartons.");
    expect(injected?.text).toContain("restock_oat_milk");
    // The model saw it too, right before the user's message.
    const sent = model.requests[2]?.messages ?? [];
    expect(sent.at(-2)?.text).toContain("Restocked on Tuesday, 40 cartons.");
    expect(sent.at(-1)?.text).toBe("Any news?");

    expect((await store.getInboxItems())[0]?.status).toBe("consumed");
    expect(await store.getResolvedInboxItems()).toEqual([]);

    await glove.processRequest("Thanks!");
    const mentions = (await store.getMessages()).filter((m) => m.text.includes("Restocked on Tuesday")).length;
    expect(mentions).toBe(1);
  });

  it("reminds the model of pending blocking items in the next request's system prompt without persisting the reminder", async () => {
    const store = new MemoryStore("shop");
    const { glove, model } = buildGlove(store, [
      post("manager_approval", "May I give a 20% discount?", true),
      { text: "Waiting on the manager." },
      { text: "Still waiting." },
      { text: "Approved!" },
    ]);
    await glove.processRequest("Can I get a discount?");
    expect(model.requests[0]?.systemPrompt).toBe("You run a coffee shop.");

    await glove.processRequest("Well?");
    const reminded = model.requests[2]?.systemPrompt ?? "";
    expect(reminded.startsWith("You run a coffee shop.")).toBe(true);
    expect(reminded).toContain("manager_approval");
    expect(reminded).toContain("May I give a 20% discount?");
    expect(reminded).toMatch(/blocking/);

    const persisted = await store.getMessages();
    expect(persisted.some((m) => m.text.includes("still waiting for an answer"))).toBe(false);
    expect(persisted.filter((m) => m.sender === "user" && !m.tool_results).map((m) => m.text)).toEqual([
      "Can I get a discount?",
      "Well?",
    ]);
    // The base prompt itself is unchanged.
    expect(glove.getSystemPrompt()).toBe("You run a coffee shop.");

    const [item] = await store.getInboxItems();
    await store.updateInboxItem(item!.id, {
      status: "resolved",
      response: "Yes",
      resolved_at: new Date().toISOString(),
    });
    await glove.processRequest("And now?");
    expect(model.requests[3]?.systemPrompt).toBe("You run a coffee shop.");
  });
});

describe("createInboxTool(store)", () => {
  it("works standalone and returns the item as renderData", async () => {
    const store = new MemoryStore("s");
    const inboxTool = createInboxTool(store);
    const result = await inboxTool.run({ tag: "t", request: "r" });
    const [item] = await store.getInboxItems();
    expect(result).toMatchObject({ status: "success", renderData: { item } });
    expect(item).toMatchObject({ tag: "t", request: "r", status: "pending", blocking: false });
  });
});
