/**
 * Thinking round trips on recorded Anthropic traffic: what the adapter keeps from a response with
 * (redacted) thinking, and the exact assistant turn it sends back on the next request.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Message, Tool } from "glove-core";
import { replayServers } from "../support/index.js";
import { adapter, DIR, events, recorded, stored } from "./harness.js";

const startServer = replayServers();

const getUserCountry: Tool<unknown> = {
  name: "get_user_country",
  description: "",
  jsonSchema: { additionalProperties: false, properties: {}, type: "object" },
  run: async () => "Mexico",
};

const question: Message = { sender: "user", text: "What is the largest city in the user country?" };

describe("Anthropic thinking + tool loop (recorded, not streamed)", () => {
  it("keeps the signed thinking block and sends it back before text and tool_use, as the recording's client did", async () => {
    const server = await startServer([
      { response: recorded("tool-loop-thinking.1") },
      { response: recorded("tool-loop-thinking.2") },
    ]);
    const model = adapter({ baseURL: server.url, stream: false });
    const first = await model.prompt({ messages: [question], tools: [getUserCountry] }, events().notify);
    const reply = first.messages[0]!;
    const expectedTurn = JSON.parse(
      readFileSync(join(DIR, "tool-loop-thinking.expected-assistant-turn.json"), "utf8"),
    ) as {
      content: Array<Record<string, unknown>>;
    };
    const thinking = expectedTurn.content[0]!;
    expect(reply.tool_calls).toEqual([
      { tool_name: "get_user_country", input_args: {}, id: "toolu_01YGzqpRE16Vricda3Aqcejo" },
    ]);
    expect(reply.text).toBe(expectedTurn.content[1]!["text"]);
    expect(reply.reasoning_content).toBe(thinking["thinking"]);
    expect(reply.reasoning_blocks).toEqual([
      { type: "thinking", text: thinking["thinking"], signature: thinking["signature"], provider: "anthropic" },
    ]);

    // The history goes through a store (JSON) before the next turn, as it does in Glove.
    const toolResult: Message = {
      sender: "user",
      text: "",
      tool_results: [
        {
          tool_name: "get_user_country",
          call_id: "toolu_01YGzqpRE16Vricda3Aqcejo",
          result: { status: "success", data: "Mexico" },
        },
      ],
    };
    const second = await model.prompt(
      { messages: stored([question, reply, toolResult]), tools: [getUserCountry] },
      events().notify,
    );
    expect(second.messages[0]!.text).toContain("Ciudad de México");

    const sent = server.script.body(1)["messages"] as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    expect(sent[1]).toEqual(expectedTurn);
    // The thinking text travels only inside its signed block, never as text.
    const texts = sent
      .flatMap((m) => m.content)
      .filter((b) => b["type"] === "text")
      .map((b) => String(b["text"]));
    expect(texts.some((t) => t.includes("get_user_country function first"))).toBe(false);
    expect(sent[2]!.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_01YGzqpRE16Vricda3Aqcejo" });
  });

  it("does not send another provider's reasoning blocks (nor their text) to Anthropic", async () => {
    const server = await startServer([{ response: recorded("tool-loop-thinking.2") }]);
    const model = adapter({ baseURL: server.url, stream: false });
    const foreign: Message = {
      sender: "agent",
      text: "Let me look.",
      reasoning_content: "SECRET-REASONING",
      reasoning_blocks: [
        { type: "thinking", text: "SECRET-REASONING", signature: "c2lnbmVkLWVsc2V3aGVyZQ==", provider: "bedrock" },
        { type: "redacted_thinking", data: "b3BhcXVl", provider: "openrouter" },
      ],
    };
    await model.prompt({ messages: [question, foreign, { sender: "user", text: "go on" }] }, events().notify);
    const raw = server.script.requests[0]!.raw;
    expect(raw).not.toContain("SECRET-REASONING");
    expect(raw).not.toContain("c2lnbmVkLWVsc2V3aGVyZQ==");
    expect(raw).not.toContain("b3BhcXVl");
    const sent = server.script.body(0)["messages"] as Array<{ content: unknown[] }>;
    expect(sent[1]!.content).toEqual([{ type: "text", text: "Let me look." }]);
  });
});

describe("Anthropic redacted thinking (recorded, streamed)", () => {
  it("keeps both redacted blocks byte for byte and returns them first, in order, on the next turn", async () => {
    const server = await startServer([
      { response: recorded("redacted-thinking") },
      { response: recorded("thinking-text") },
    ]);
    const model = adapter({
      baseURL: server.url,
      model: "claude-sonnet-4-5-20250929",
      thinking: { type: "enabled", budget_tokens: 1024 },
    });
    const user: Message = { sender: "user", text: "ANTHROPIC_MAGIC_STRING_TRIGGER_REDACTED_THINKING" };
    const seen = events();
    const first = await model.prompt({ messages: [user] }, seen.notify);
    const reply = first.messages[0]!;
    const blocks = reply.reasoning_blocks ?? [];
    expect(blocks.map((b) => b.type)).toEqual(["redacted_thinking", "redacted_thinking"]);
    expect(blocks[0]!.data).toMatch(/^EqkECkYIBxgCKkA8AZ4n.*ewJ\/hgB$/);
    expect(blocks[1]!.data).toMatch(/^EtgBCkYIBxgCKkDQfGkw.*J0GAE=$/);
    expect(reply.text.startsWith("I notice that you've sent what appears to be some kind of test string")).toBe(true);
    expect(reply.reasoning_content).toBeUndefined();
    // Redacted data never reaches subscribers.
    expect(JSON.stringify(seen.list)).not.toContain(blocks[0]!.data!.slice(0, 40));

    const second = await model.prompt(
      { messages: stored([user, reply, { sender: "user", text: "925 / 5?" }]) },
      events().notify,
    );
    const sent = server.script.body(1)["messages"] as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    expect(sent[1]!.content).toEqual([
      { type: "redacted_thinking", data: blocks[0]!.data },
      { type: "redacted_thinking", data: blocks[1]!.data },
      { type: "text", text: reply.text },
    ]);

    // The second answer: a thinking block whose signature arrived as a signature_delta.
    const next = second.messages[0]!;
    expect(next.text).toBe("925 ÷ 5 = 185");
    expect(next.reasoning_blocks).toEqual([
      {
        type: "thinking",
        text: "The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185",
        signature: expect.stringMatching(/^EvQBCkYICxgC.*17BgB$/),
        provider: "anthropic",
      },
    ]);
  });
});
