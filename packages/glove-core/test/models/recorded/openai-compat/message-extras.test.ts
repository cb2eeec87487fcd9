/**
 * Provider extras on recorded traffic, on the next turn: Gemini 3's real thought signature on a
 * call, OpenRouter's reasoning_details on the whole message (joined from streamed pieces), sent
 * back to the provider that produced them — and to no other server the conversation moves to.
 */
import { describe, expect, it } from "vitest";
import { MemoryStore, type Message } from "glove-core";
import { byteByByte, insideUtf8, whole, type Chunking } from "../support/index.js";
import { OPENROUTER_CLAUDE_DETAILS, RECORDED_GEMINI_SIGNATURE } from "./expectations.js";
import { fixture, replayAdapter, weatherTool } from "./harness.js";

const noop = async () => {};
type Wire = Record<string, unknown>;
const chunkingName = (c: Chunking) => (c === whole ? "whole" : c === byteByByte ? "byte by byte" : "inside UTF-8");

/** Turn one on `first` with adapter `one`, then the history continued by a second adapter. */
async function continued(
  first: { name: string; provider: string; chunking?: Chunking },
  second: { name: string; provider: string },
): Promise<{ turnOne: Message; messages: Wire[] }> {
  const one = replayAdapter([{ fixture: fixture(first.name), chunking: first.chunking ?? whole }], {
    provider: first.provider,
    reasoning: true,
  });
  const history: Message[] = [{ sender: "user", text: "Recorded question." }];
  const turnOne = (await one.adapter.prompt({ messages: history, tools: [weatherTool] }, noop)).messages[0]!;
  history.push(turnOne, followUp(turnOne));
  const two = replayAdapter([{ fixture: fixture(second.name) }], { provider: second.provider, reasoning: true });
  await two.adapter.prompt({ messages: history, tools: [weatherTool] }, noop);
  return { turnOne, messages: two.script.body(0)["messages"] as Wire[] };
}

/** The user turn after `turn`: its tool results, or a next question. */
function followUp(turn: Message): Message {
  if (!turn.tool_calls?.length) return { sender: "user", text: "And 3+3?" };
  return {
    sender: "user",
    text: "",
    tool_results: turn.tool_calls.map((c) => ({
      tool_name: c.tool_name,
      call_id: c.id,
      result: { status: "success" as const, data: "package main" },
    })),
  };
}

const assistantOf = (messages: Wire[]) => messages.find((m) => m["role"] === "assistant")!;

describe("Gemini 3's recorded thought signature goes back on the next turn", () => {
  for (const chunking of [whole, byteByByte, insideUtf8]) {
    it(`on the call it signed, verbatim, without the stream's index (${chunkingName(chunking)})`, async () => {
      const { turnOne, messages } = await continued(
        { name: "gemini-recorded-signed-call", provider: "gemini", chunking },
        { name: "gemini-answer", provider: "gemini" },
      );
      expect(turnOne.provider).toBe("gemini");
      expect(assistantOf(messages)).toEqual({
        role: "assistant",
        content: null,
        tool_calls: [
          {
            extra_content: { google: { thought_signature: RECORDED_GEMINI_SIGNATURE } },
            id: "623rbkd0",
            type: "function",
            function: { name: "read", arguments: '{"filePath":"/home/rafael/Projects/git.0ur.uk/nenya/gateway.go"}' },
          },
        ],
      });
      expect(messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "623rbkd0" });
    });
  }
});

describe("OpenRouter's reasoning_details go back with the message", () => {
  for (const chunking of [whole, byteByByte, insideUtf8]) {
    it(`Claude's streamed detail, its pieces joined, signature included (${chunkingName(chunking)})`, async () => {
      const { turnOne, messages } = await continued(
        { name: "openrouter-claude-reasoning", provider: "openrouter", chunking },
        { name: "openai-text", provider: "openrouter" },
      );
      expect(turnOne.provider_extras).toEqual({ reasoning_details: OPENROUTER_CLAUDE_DETAILS });
      expect(assistantOf(messages)).toEqual({
        role: "assistant",
        content: "2 + 2 = 4",
        reasoning_details: OPENROUTER_CLAUDE_DETAILS,
      });
    });
  }

  it("a whole answer's summary and encrypted details, in their order", async () => {
    const { turnOne, messages } = await continued(
      { name: "openrouter-reasoning-whole", provider: "openrouter" },
      { name: "openai-json-schema-whole", provider: "openrouter" },
    );
    const details = turnOne.provider_extras!["reasoning_details"] as Wire[];
    expect(details.map((d) => d["type"])).toEqual(["reasoning.summary", "reasoning.encrypted"]);
    expect(assistantOf(messages)["reasoning_details"]).toEqual(details);
  });

  it("the message's extras survive a store round trip and still go back", async () => {
    const store = new MemoryStore("extras");
    const one = replayAdapter([{ fixture: fixture("openrouter-claude-reasoning") }], {
      provider: "openrouter",
      reasoning: true,
    });
    const turnOne = (await one.adapter.prompt({ messages: [{ sender: "user", text: "What is 2+2?" }] }, noop))
      .messages[0]!;
    await store.appendMessages([
      { sender: "user", text: "What is 2+2?" },
      turnOne,
      { sender: "user", text: "And 3+3?" },
    ]);
    const stored = await store.getMessages();
    expect(stored[1]).toMatchObject({
      provider: "openrouter",
      provider_extras: { reasoning_details: OPENROUTER_CLAUDE_DETAILS },
    });
    const two = replayAdapter([{ fixture: fixture("openai-text") }], { provider: "openrouter", reasoning: true });
    await two.adapter.prompt({ messages: stored }, noop);
    expect(assistantOf(two.script.body(0)["messages"] as Wire[])["reasoning_details"]).toEqual(
      OPENROUTER_CLAUDE_DETAILS,
    );
  });

  it("stores refuse provider_extras that are not a plain record, and a provider that is not a string", async () => {
    const store = new MemoryStore("bad-extras");
    await expect(
      store.appendMessages([
        { sender: "agent", text: "", provider_extras: ["x"] as unknown as Record<string, unknown> },
      ]),
    ).rejects.toThrow(/provider_extras must be an object/);
    await expect(
      store.appendMessages([{ sender: "agent", text: "", provider: 7 as unknown as string }]),
    ).rejects.toThrow(/provider must be a string/);
    expect(await store.getMessages()).toEqual([]);
  });
});

describe("extras never follow a conversation to another server", () => {
  /** What a strict OpenAI server accepts on an assistant message and a call. */
  function expectStrict(messages: Wire[]): void {
    for (const m of messages.filter((x) => x["role"] === "assistant")) {
      expect(Object.keys(m).every((k) => ["role", "content", "tool_calls", "reasoning_content"].includes(k))).toBe(
        true,
      );
      for (const call of (m["tool_calls"] as Wire[] | undefined) ?? []) {
        expect(Object.keys(call).sort()).toEqual(["function", "id", "type"]);
        expect(Object.keys(call["function"] as Wire).sort()).toEqual(["arguments", "name"]);
      }
    }
  }

  it("a Gemini conversation continued on a strict OpenAI server sends no signature; on Gemini it does", async () => {
    const elsewhere = await continued(
      { name: "gemini-recorded-signed-call", provider: "gemini" },
      { name: "openai-text", provider: "openai" },
    );
    expectStrict(elsewhere.messages);
    expect((assistantOf(elsewhere.messages)["tool_calls"] as Wire[])[0]!["id"]).toBe("623rbkd0");

    const same = await continued(
      { name: "gemini-recorded-signed-call", provider: "gemini" },
      { name: "gemini-answer", provider: "gemini" },
    );
    expect((assistantOf(same.messages)["tool_calls"] as Wire[])[0]!["extra_content"]).toEqual({
      google: { thought_signature: RECORDED_GEMINI_SIGNATURE },
    });
  });

  it("an OpenRouter conversation continued on a strict OpenAI server sends no reasoning_details", async () => {
    const { messages } = await continued(
      { name: "openrouter-claude-reasoning", provider: "openrouter" },
      { name: "openai-text", provider: "openai" },
    );
    expectStrict(messages);
    expect(assistantOf(messages)).toEqual({ role: "assistant", content: "2 + 2 = 4" });
  });

  it("a message stored before Message.provider existed keeps today's behaviour: its extras go back", async () => {
    const legacy: Message = {
      sender: "agent",
      text: "",
      provider_extras: { reasoning_details: OPENROUTER_CLAUDE_DETAILS },
      tool_calls: [
        {
          id: "c1",
          tool_name: "weather",
          input_args: {},
          provider_extras: { extra_content: { google: { thought_signature: RECORDED_GEMINI_SIGNATURE } } },
        },
      ],
    };
    const { adapter, script } = replayAdapter([{ fixture: fixture("openai-text") }], { provider: "anything" });
    const result = { tool_name: "weather", call_id: "c1", result: { status: "success" as const, data: 1 } };
    await adapter.prompt(
      { messages: [{ sender: "user", text: "q" }, legacy, { sender: "user", text: "", tool_results: [result] }] },
      noop,
    );
    const sent = assistantOf(script.body(0)["messages"] as Wire[]);
    expect(sent["reasoning_details"]).toEqual(OPENROUTER_CLAUDE_DETAILS);
    expect((sent["tool_calls"] as Wire[])[0]!["extra_content"]).toEqual({
      google: { thought_signature: RECORDED_GEMINI_SIGNATURE },
    });
  });
});
