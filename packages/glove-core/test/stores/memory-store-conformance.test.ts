import { describe, expect, it } from "vitest";
import type {
  Message,
  ModelCallRecord,
  StoredWait,
  SubAgentStoreOptions,
  WaitFilter,
  WaitOutcome,
} from "../../src/index.js";
import { MemoryStore } from "../../src/index.js";
import { storeConformanceCases, type StoreCapability } from "../../src/testing/index.js";

// MemoryStore keeps its data in the instance, so "the same session" is the same instance.
const sessions = new Map<string, MemoryStore>();
const ALL: StoreCapability[] = [
  "tasks",
  "replaceTasks",
  "permissions",
  "inbox",
  "consumeInboxItem",
  "waits",
  "subAgentStores",
  "messageCount",
  "messagesSinceLastCompaction",
  "messagePage",
  "branches",
  "recordModelCall",
];

describe("MemoryStore conformance", () => {
  const cases = storeConformanceCases({
    createStore: async (sessionId) => {
      let store = sessions.get(sessionId);
      if (!store) sessions.set(sessionId, (store = new MemoryStore(sessionId)));
      return store;
    },
    cleanup: async () => sessions.clear(),
    require: ALL,
  });
  for (const c of cases) it(c.name, c.run);
});

/** The suite must fail broken stores, with a message that says what broke. */
describe("the conformance suite catches broken stores", () => {
  const run = async (make: (id: string) => MemoryStore, caseName: RegExp): Promise<string> => {
    const stores = new Map<string, MemoryStore>();
    const cases = storeConformanceCases({
      createStore: async (id) => {
        let store = stores.get(id);
        if (!store) stores.set(id, (store = make(id)));
        return store;
      },
      require: ALL,
    });
    const target = cases.find((c) => caseName.test(c.name));
    if (!target) throw new Error(`no case matches ${caseName}`);
    try {
      await target.run();
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error(`case "${target.name}" passed a broken store`);
  };

  it("a store that drops reasoning_content", async () => {
    class Lossy extends MemoryStore {
      override async appendMessages(msgs: Message[]) {
        return super.appendMessages(msgs.map(({ reasoning_content: _r, ...m }) => m));
      }
    }
    expect(await run((id) => new Lossy(id), /every Message field/)).toMatch(
      /getMessages\(\)\[1\]\.reasoning_content: expected "The user wants/,
    );
  });

  it("a store that turns an absent flag into false", async () => {
    class Flags extends MemoryStore {
      override async getMessages() {
        return (await super.getMessages()).map((m) => ({ ...m, is_skill_injection: m.is_skill_injection ?? false }));
      }
    }
    expect(await run((id) => new Flags(id), /every Message field/)).toMatch(
      /is_skill_injection: expected undefined \(absent\), got false/,
    );
  });

  it("a store whose resetCounters also deletes messages", async () => {
    class Forgetful extends MemoryStore {
      override async resetCounters() {
        await super.resetCounters();
        (this as unknown as { getMessages: () => Promise<Message[]> }).getMessages = async () => [];
      }
    }
    expect(await run((id) => new Forgetful(id), /resetCounters/)).toMatch(/messages after resetCounters/);
  });

  it("a store whose getResolvedInboxItems also lists consumed items", async () => {
    class Leaky extends MemoryStore {
      override async getResolvedInboxItems() {
        return (await this.getInboxItems()).filter((i) => i.status !== "pending");
      }
    }
    expect(await run((id) => new Leaky(id), /^inbox/)).toMatch(/getResolvedInboxItems\(\) after consuming/);
  });

  it("a store whose consumeInboxItem consumes whatever the status (every claim wins)", async () => {
    class Unconditional extends MemoryStore {
      override async consumeInboxItem(itemId: string) {
        await this.updateInboxItem(itemId, { status: "consumed" });
        return true;
      }
    }
    expect(await run((id) => new Unconditional(id), /^consumeInboxItem: only a resolved/)).toMatch(
      /consumeInboxItem\(\) of a pending item: expected false, got true/,
    );
    expect(await run((id) => new Unconditional(id), /^consumeInboxItem: of many claims/)).toMatch(
      /claims of race-0 that won .*: expected 1, got 6/,
    );
  });

  it("a store that shares one durable sub-store across sessions", async () => {
    const shared = new MemoryStore("shared");
    class Global extends MemoryStore {
      override async createSubAgentStore(namespace: string, options?: SubAgentStoreOptions | boolean) {
        const durable = typeof options === "boolean" ? options : options?.durable === true;
        return durable ? shared : super.createSubAgentStore(namespace, { durable });
      }
    }
    expect(await run((id) => new Global(id), /createSubAgentStore/)).toMatch(
      /another session's durable sub-store|durable sub-store/,
    );
  });

  it("a store that half-implements the inbox", async () => {
    class Half extends MemoryStore {}
    (Half.prototype as Partial<MemoryStore>).getResolvedInboxItems = undefined;
    expect(await run((id) => new Half(id), /^inbox/)).toMatch(
      /implements getInboxItems, addInboxItem, updateInboxItem but not getResolvedInboxItems/,
    );
  });

  it("a store that accepts non-boolean flags (the old MemoryStore)", async () => {
    class Lenient extends MemoryStore {
      override async appendMessages(msgs: Message[]) {
        return super.appendMessages(
          msgs.map((m) =>
            typeof m?.is_compaction === "boolean" || m?.is_compaction === undefined
              ? m
              : { ...m, is_compaction: Boolean(m.is_compaction) },
          ),
        );
      }
    }
    expect(await run((id) => new Lenient(id), /messages no store can keep/)).toMatch(
      /appendMessages\(\[is_compaction: 1\]\) must be refused with GLOVE_STORE_INVALID, but it was accepted/,
    );
  });

  it("a store that truncates token counts instead of refusing them", async () => {
    class Truncating extends MemoryStore {
      override async addTokens(args: { tokens_in: number; tokens_out: number }) {
        return super.addTokens({
          tokens_in: Math.trunc(Number(args?.tokens_in)) || 0,
          tokens_out: Math.trunc(Number(args?.tokens_out)) || 0,
        });
      }
    }
    expect(await run((id) => new Truncating(id), /^token counts: only/)).toMatch(
      /addTokens\(\{ tokens_in: 12 \}\) must be refused with GLOVE_STORE_INVALID/,
    );
  });

  it("a store whose recordModelCall counts tokens and the turn before a refused message", async () => {
    class NotAtomic extends MemoryStore {
      override async recordModelCall(call: ModelCallRecord) {
        await this.addTokens(call?.tokens);
        await this.incrementTurn();
        await this.appendMessages(call.messages);
      }
    }
    expect(await run((id) => new NotAtomic(id), /^recordModelCall: messages, tokens and one turn/)).toMatch(
      /getTokenCount\(\) after refused model calls \(must write nothing\): expected 12, got 22/,
    );
  });

  it("a store whose recordModelCall forgets the turn", async () => {
    class NoTurn extends MemoryStore {
      override async recordModelCall(call: ModelCallRecord) {
        await this.addTokens(call.tokens);
        await this.appendMessages(call.messages);
      }
    }
    expect(await run((id) => new NoTurn(id), /^recordModelCall: the same history/)).toMatch(
      /getTurnCount\(\) after model calls: expected 3, got 0/,
    );
  });

  it("a store whose every settle of a known wait wins (last answer wins)", async () => {
    class LastWins extends MemoryStore {
      override async settleWait(id: string, outcome: WaitOutcome) {
        const result = await super.settleWait(id, outcome);
        return { ...result, won: result.wait !== undefined };
      }
    }
    expect(await run((id) => new LastWins(id), /^waits: the first settle wins/)).toMatch(
      /a second settleWait\(\) \(must lose and return the stored wait\)\.won: expected false, got true/,
    );
  });

  it("a store that loses lone surrogates in wait data (as UTF-8 encoding does)", async () => {
    class Lossy extends MemoryStore {
      override async getWaits(filter?: WaitFilter): Promise<StoredWait[]> {
        return JSON.parse(
          JSON.stringify(await super.getWaits(filter)).replace(/\\ud[89a-f][0-9a-f]{2}/g, "\ufffd"),
        ) as StoredWait[];
      }
    }
    expect(await run((id) => new Lossy(id), /^waits: add\/get round-trip/)).toMatch(
      /getWaits\(\) after five adds\[0\]\.input\.text: expected/,
    );
  });

  it("a store that half-implements durable questions", async () => {
    class Half extends MemoryStore {}
    (Half.prototype as Partial<MemoryStore>).getWaits = undefined;
    expect(await run((id) => new Half(id), /^waits: add\/get/)).toMatch(
      /implements addWait, settleWait but not getWaits: the waits group is all or nothing/,
    );
  });

  it("a store that loses lone surrogates in message text (as UTF-8 encoding does)", async () => {
    class Lossy extends MemoryStore {
      override async getMessages() {
        return (await super.getMessages()).map((m) => ({ ...m, text: m.text.replace(/[\ud800-\udfff]/g, "\ufffd") }));
      }
    }
    expect(await run((id) => new Lossy(id), /round-trip exactly/)).toMatch(
      /getMessages\(\) \(text must be exact; data as its JSON form\)\[0\]\.text/,
    );
  });
});

describe("MemoryStore.recordModelCall in a subclass that changes a step", () => {
  it("goes through the subclass's appendMessages, addTokens and incrementTurn, and a refused count still writes nothing", async () => {
    const seen: string[] = [];
    class Persisting extends MemoryStore {
      override async appendMessages(msgs: Message[]) {
        seen.push(`append ${msgs.map((m) => m.text).join(",")}`);
        return super.appendMessages(msgs);
      }
      override async addTokens(args: { tokens_in: number; tokens_out: number }) {
        seen.push(`tokens ${args.tokens_in}+${args.tokens_out}`);
        return super.addTokens(args);
      }
      override async incrementTurn() {
        seen.push("turn");
        return super.incrementTurn();
      }
    }
    const store = new Persisting("s");
    await store.recordModelCall({
      messages: [{ sender: "agent", text: "a" }],
      tokens: { tokens_in: 3, tokens_out: 1 },
    });
    expect(seen).toEqual(["append a", "tokens 3+1", "turn"]);
    await expect(
      store.recordModelCall({ messages: [{ sender: "agent", text: "b" }], tokens: { tokens_in: -1, tokens_out: 0 } }),
    ).rejects.toMatchObject({
      code: "GLOVE_STORE_INVALID",
    });
    expect(seen).toHaveLength(3);
    expect([(await store.getMessages()).length, await store.getTokenCount(), await store.getTurnCount()]).toEqual([
      1, 4, 1,
    ]);
  });
});
