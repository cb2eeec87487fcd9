import { describe, expect, it } from "vitest";
import {
  Agent,
  Context,
  EventBus,
  Executor,
  MemoryStore,
  Observer,
  PromptMachine,
  type Message,
  type StoreAdapter,
  type TokenConsumptionCounter,
} from "glove-core";
import { ScriptedModel, type ScriptedStep } from "glove-core/testing";
import { makeGlove } from "../support/make-glove.js";

/** `inner` with every store call it gets recorded by name; `hide` makes methods absent. */
function recording(inner: StoreAdapter, hide: string[] = []): { store: StoreAdapter; calls: string[] } {
  const calls: string[] = [];
  const store = new Proxy(inner, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== "function") return value;
      if (hide.includes(String(key))) return undefined;
      return (...args: unknown[]) => {
        calls.push(String(key));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store, calls };
}

const SCRIPT: ScriptedStep[] = [
  { text: "Checking now", toolCalls: [{ name: "t", input: {} }], tokens_in: 11, tokens_out: 4 },
  { text: "Done.", tokens_in: 20, tokens_out: 2 },
];

/** Ids are random per run: compare everything else. */
const withoutIds = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value, (key, v: unknown) =>
      key === "id" || key === "call_id" || key === "toolCallId" ? undefined : v,
    ),
  );

async function run(hide: string[]) {
  const { store, calls } = recording(new MemoryStore("s"), hide);
  const { glove, events } = makeGlove(
    SCRIPT.map((s) => ({ ...s })),
    { store },
  );
  glove.fold({ name: "t", description: "t", do: async () => "ok" });
  await glove.processRequest("go");
  const history: Message[] = await store.getMessages();
  return {
    calls,
    events: events.events,
    history,
    tokens: await store.getTokenCount(),
    turns: await store.getTurnCount(),
  };
}

describe("the agent loop stores a model call in one write when the store can (decision 0037)", () => {
  it("uses recordModelCall when present and the three calls when absent: same history, counters and events", async () => {
    const one = await run([]);
    const three = await run(["recordModelCall"]);

    const writes = (calls: string[]) =>
      calls.filter((c) => ["appendMessages", "addTokens", "incrementTurn", "recordModelCall"].includes(c));
    // The user's message, model call, tool results, model call.
    expect(writes(one.calls)).toEqual(["appendMessages", "recordModelCall", "appendMessages", "recordModelCall"]);
    expect(writes(three.calls)).toEqual([
      "appendMessages",
      ...["addTokens", "appendMessages", "incrementTurn"],
      "appendMessages",
      ...["addTokens", "appendMessages", "incrementTurn"],
    ]);

    expect(withoutIds(one.history)).toEqual(withoutIds(three.history));
    expect(one.history.map((m) => m.text)).toEqual(["go", "Checking now", "", "Done."]);
    expect([one.tokens, one.turns]).toEqual([37, 2]);
    expect([three.tokens, three.turns]).toEqual([37, 2]);
    expect(withoutIds(one.events)).toEqual(withoutIds(three.events));
    expect(one.events.filter((e) => e.type === "token_consumption")).toEqual([
      { type: "token_consumption", consumption: { tokens_in: 11, tokens_out: 4 } },
      { type: "token_consumption", consumption: { tokens_in: 20, tokens_out: 2 } },
    ]);
  });

  it("token_consumption follows the stored call: a subscriber reading the store then sees the call's messages, tokens and turn", async () => {
    const store = new MemoryStore("s");
    const { glove } = makeGlove([{ text: "Hello.", tokens_in: 5, tokens_out: 1 }], { store });
    const seen: unknown[] = [];
    glove.addSubscriber({
      record: async (type, _data) => {
        if (type === "token_consumption")
          seen.push([
            (await store.getMessages()).map((m) => m.text),
            await store.getTokenCount(),
            await store.getTurnCount(),
          ]);
      },
    });
    await glove.processRequest("hi");
    expect(seen).toEqual([[["hi", "Hello."], 6, 1]]);
  });

  it("a token count the store refuses stores nothing of the call and emits no token_consumption, with or without the capability", async () => {
    const near = Number.MAX_SAFE_INTEGER - 3;
    for (const hide of [[], ["recordModelCall"]]) {
      const { store } = recording(new MemoryStore("s"), hide);
      await store.addTokens({ tokens_in: near, tokens_out: 0 });
      const { glove, events } = makeGlove([{ text: "Hello.", tokens_in: 5, tokens_out: 1 }], { store });
      await expect(glove.processRequest("hi")).rejects.toMatchObject({ code: "GLOVE_STORE_INVALID" });
      expect((await store.getMessages()).map((m) => m.text)).toEqual(["hi"]);
      expect([await store.getTokenCount(), await store.getTurnCount()]).toEqual([near, 0]);
      expect(events.types()).not.toContain("token_consumption");
    }
  });

  it("an Observer subclass that changes addTokensConsumed still gets it called (the three steps, not the store's one write)", async () => {
    const store = new MemoryStore("s");
    const context = new Context(store);
    const bus = new EventBus();
    const prompt = new PromptMachine(
      new ScriptedModel([{ text: "Hello.", tokens_in: 5, tokens_out: 1 }]),
      context,
      "You are a test agent.",
      { bus },
    );
    const counted: number[] = [];
    class Counting extends Observer {
      override async addTokensConsumed(args: TokenConsumptionCounter): Promise<void> {
        counted.push(args.tokens_in);
        await super.addTokensConsumed(args);
      }
    }
    const observer = new Counting(store, context, prompt, "Summarize.", undefined, 100_000, 90, bus);
    const agent = new Agent(store, new Executor(0, store, { bus }), context, observer, prompt);
    await agent.ask({ sender: "user", text: "hi" });
    expect(counted).toEqual([5]);
    expect([await store.getTokenCount(), await store.getTurnCount(), (await store.getMessages()).length]).toEqual([
      6, 1, 2,
    ]);
  });
});
