/**
 * Reasoning round trips on recorded Bedrock traffic (binary ConverseStream and Converse JSON):
 * what the adapter keeps, and the exact assistant turn it sends back on the next request.
 */
import { describe, expect, it } from "vitest";
import type { Message, Tool } from "glove-core";
import { replayServers } from "../support/index.js";
import { adapter, recorded } from "./event-stream.js";

const startServer = replayServers();

const notify = async () => {};
const stored = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
type Sent = Array<{ role: string; content: Array<Record<string, unknown>> }>;
const REASONING =
  "Let me count the r's in \"strawberry\":\n\ns-t-r-a-w-b-e-r-r-y\n\nr appears at positions 3, 8, and 9.\n\nSo there are 3 r's.";

const propose: Tool<unknown> = {
  name: "propose",
  description: "Propose groups.",
  jsonSchema: { type: "object", properties: { groups: { type: "array" } } },
  run: async () => "ok",
};

describe("Bedrock reasoning (recorded ConverseStream)", () => {
  it("keeps signed reasoning and sends it back as reasoningContent before the text", async () => {
    const server = await startServer([
      { response: recorded("reasoning-signed") },
      { response: recorded("reasoning-signed") },
    ]);
    const model = adapter({ baseURL: server.url, thinking: { type: "enabled", budget_tokens: 1024 } });
    const user: Message = { sender: "user", text: "How many r's in strawberry?" };
    const first = await model.prompt({ messages: [user] }, notify);
    const reply = first.messages[0]!;
    expect(reply.text).toBe('There are **3** r\'s in "strawberry":\n\n1. st**r**awbe**r****r**y');
    expect(reply.reasoning_content).toBe(REASONING);
    expect(reply.reasoning_blocks).toEqual([
      {
        type: "thinking",
        text: REASONING,
        signature: expect.stringMatching(/^Ep0CCkgICxAB.*RkDaGAE=$/),
        provider: "bedrock",
      },
    ]);
    expect(server.script.body(0)["additionalModelRequestFields"]).toEqual({
      thinking: { type: "enabled", budget_tokens: 1024 },
    });

    await model.prompt({ messages: stored([user, reply, { sender: "user", text: "And in raspberry?" }]) }, notify);
    const sent = server.script.body(1)["messages"] as Sent;
    expect(sent[1]).toEqual({
      role: "assistant",
      content: [
        { reasoningContent: { reasoningText: { text: REASONING, signature: reply.reasoning_blocks![0]!.signature } } },
        { text: reply.text },
      ],
    });
    expect(JSON.stringify(sent.flatMap((m) => m.content.filter((b) => "text" in b)))).not.toContain("positions 3, 8");
  });

  it("tool loop: redacted reasoning goes back intact, ahead of the toolUse it preceded", async () => {
    const server = await startServer([
      { response: recorded("redacted-tool-call") },
      { response: recorded("reasoning-signed") },
    ]);
    const model = adapter({ baseURL: server.url });
    const user: Message = { sender: "user", text: "Group the org chart." };
    const first = await model.prompt({ messages: [user], tools: [propose] }, notify);
    const reply = first.messages[0]!;
    const data = reply.reasoning_blocks?.[0]?.data ?? "";
    expect(reply.reasoning_blocks).toEqual([
      { type: "redacted_thinking", data: expect.stringMatching(/^cnNuX3BVUGgx.*RVJrZz09$/), provider: "bedrock" },
    ]);
    expect(data).toHaveLength(1184);
    expect(reply.tool_calls).toEqual([
      {
        tool_name: "propose",
        id: "call_61f8fcbe423a58699163c53e076f1a06",
        input_args: {
          groups: [
            { name: "Sales", parentGroupName: "" },
            { name: "Team1", parentGroupName: "Sales" },
          ],
        },
      },
    ]);

    const result: Message = {
      sender: "user",
      text: "",
      tool_results: [
        {
          tool_name: "propose",
          call_id: "call_61f8fcbe423a58699163c53e076f1a06",
          result: { status: "success", data: "accepted" },
        },
      ],
    };
    await model.prompt({ messages: stored([user, reply, result]), tools: [propose] }, notify);
    const sent = server.script.body(1)["messages"] as Sent;
    expect(sent[1]).toEqual({
      role: "assistant",
      content: [
        { reasoningContent: { redactedContent: data } },
        {
          toolUse: {
            toolUseId: "call_61f8fcbe423a58699163c53e076f1a06",
            name: "propose",
            input: reply.tool_calls![0]!.input_args,
          },
        },
      ],
    });
    expect(sent[2]!.content[0]).toMatchObject({
      toolResult: { toolUseId: "call_61f8fcbe423a58699163c53e076f1a06", status: "success" },
    });
  });
});

describe("Bedrock reasoning (recorded Converse JSON)", () => {
  it("reads signed reasoningText and returns it; blocks from Anthropic's own API are not sent to Bedrock", async () => {
    const server = await startServer([
      { response: recorded("thinking-whole") },
      { response: recorded("thinking-whole") },
    ]);
    const model = adapter({ baseURL: server.url, stream: false });
    const user: Message = { sender: "user", text: "How many letters in cat?" };
    const reply = (await model.prompt({ messages: [user] }, notify)).messages[0]!;
    expect(reply.reasoning_blocks?.[0]).toMatchObject({
      type: "thinking",
      provider: "bedrock",
      signature: expect.stringMatching(/^EtACCkgIERAB/),
    });
    expect(reply.text).toBe(
      'Let me count the letters in the word "cat":\n\nc - a - t\n\nThe word "cat" has 3 letters.',
    );

    const foreign: Message = {
      ...stored(reply),
      reasoning_blocks: [{ type: "thinking", text: "ANTHROPIC-ONLY", signature: "c2ln", provider: "anthropic" }],
    };
    await model.prompt({ messages: [user, foreign, { sender: "user", text: "and dog?" }] }, notify);
    expect(server.script.requests[1]!.raw).not.toContain("ANTHROPIC-ONLY");
    expect((server.script.body(1)["messages"] as Sent)[1]!.content).toEqual([{ text: reply.text }]);
  });
});
