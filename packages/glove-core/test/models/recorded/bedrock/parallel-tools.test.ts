/**
 * Parallel tool calls on recorded Converse JSON: the text and both calls are read in order, and
 * the next request sends them back as one assistant turn followed by one toolResult per call.
 */
import { describe, expect, it } from "vitest";
import type { Message, Tool } from "glove-core";
import { replayServers } from "../support/index.js";
import { adapter, recorded } from "./event-stream.js";

const startServer = replayServers();

const notify = async () => {};
type Sent = Array<{ role: string; content: Array<Record<string, unknown>> }>;
const tool = (name: string): Tool<unknown> => ({
  name,
  description: `Value of a ${name.split("_")[1]}.`,
  jsonSchema: { type: "object", properties: { ref: { type: "string" } }, required: ["ref"] },
  run: async () => "ok",
});
const tools = [tool("get_resistor_value"), tool("get_capacitor_value")];
const CALLS = [
  { id: "tooluse_hr5juciYZJwUHpRczsw13R", tool_name: "get_resistor_value", input_args: { ref: "R1" } },
  { id: "tooluse_AZHw3Ym0S07qOv5NlXj9iJ", tool_name: "get_capacitor_value", input_args: { ref: "C1" } },
];

describe("Bedrock parallel tool calls (recorded Converse JSON)", () => {
  it("reads the text and both calls, and sends them back with one toolResult each", async () => {
    const server = await startServer([
      { response: recorded("parallel-tools-whole") },
      { response: recorded("thinking-whole") },
    ]);
    const model = adapter({ baseURL: server.url, stream: false });
    const user: Message = { sender: "user", text: "What are R1 and C1?" };
    const first = await model.prompt({ messages: [user], tools }, notify);
    const reply = first.messages[0]!;
    expect(reply.text).toBe("Sure! I'll look up both values simultaneously right away!");
    expect(reply.tool_calls).toEqual(CALLS);
    expect([first.tokens_in, first.tokens_out]).toEqual([694, 110]);

    const results: Message = {
      sender: "user",
      text: "",
      tool_results: CALLS.map((c) => ({
        tool_name: c.tool_name,
        call_id: c.id,
        result: { status: "success" as const, data: "10k" },
      })),
    };
    await model.prompt({ messages: JSON.parse(JSON.stringify([user, reply, results])) as Message[], tools }, notify);
    const sent = server.script.body(1)["messages"] as Sent;
    expect(sent[1]).toEqual({
      role: "assistant",
      content: [
        { text: reply.text },
        ...CALLS.map((c) => ({ toolUse: { toolUseId: c.id, name: c.tool_name, input: c.input_args } })),
      ],
    });
    expect(sent[2]!.role).toBe("user");
    expect(sent[2]!.content.map((b) => (b["toolResult"] as { toolUseId: string } | undefined)?.toolUseId)).toEqual(
      CALLS.map((c) => c.id),
    );
  });
});
