/** Bedrock: a throttling exception inside the stream is retried before any output; structured output through a forced tool. */
import { describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import { replayServers } from "../support/index.js";
import { adapter, recorded } from "./event-stream.js";

const startServer = replayServers();

const messages: Message[] = [{ sender: "user", text: "Group the org chart." }];
const schema = { type: "object", properties: { groups: { type: "array" } }, required: ["groups"] };

describe("Bedrock retries in the stream", () => {
  it("a throttlingException before any output: the request is sent again (re-signed) and succeeds", async () => {
    const server = await startServer([{ response: recorded("throttled") }, { response: recorded("reasoning-signed") }]);
    const seen: string[] = [];
    const result = await adapter({ baseURL: server.url }).prompt({ messages }, async (type) => void seen.push(type));
    expect(result.messages[0]!.text).toContain("There are **3** r's");
    expect(server.script.requests).toHaveLength(2);
    expect(server.script.requests[1]!.raw).toBe(server.script.requests[0]!.raw);
    expect(seen.filter((t) => t === "model_response_complete")).toHaveLength(1);
  });

  it("a modelStreamErrorException (424) is not retried", async () => {
    const server = await startServer([
      { response: recorded("model-stream-error") },
      { response: recorded("reasoning-signed") },
    ]);
    await expect(adapter({ baseURL: server.url }).prompt({ messages }, async () => {})).rejects.toMatchObject({
      status: 424,
      retryable: false,
    });
    expect(server.script.requests).toHaveLength(1);
  });
});

describe("Bedrock structured output", () => {
  it("forces the answer tool (toolChoice.tool) and returns its input as the JSON answer text", async () => {
    const server = await startServer([{ response: recorded("redacted-tool-call") }]);
    const model = adapter({ baseURL: server.url });
    expect(model.supportsStructuredOutput).toBe(true);
    const seen: string[] = [];
    const result = await model.prompt(
      { messages, output: { name: "propose", schema, description: "The grouping." } },
      async (type) => void seen.push(type),
    );
    expect(server.script.body(0)["toolConfig"]).toEqual({
      tools: [{ toolSpec: { name: "propose", description: "The grouping.", inputSchema: { json: schema } } }],
      toolChoice: { tool: { name: "propose" } },
    });
    const reply = result.messages[0]!;
    expect(reply.tool_calls).toBeUndefined();
    expect(JSON.parse(reply.text)).toEqual({
      groups: [
        { name: "Sales", parentGroupName: "" },
        { name: "Team1", parentGroupName: "Sales" },
      ],
    });
    expect(seen).toEqual(["text_delta", "model_response_complete"]);
  });

  it("with thinking on, the answer tool is offered without forcing it (Claude refuses a forced tool while thinking)", async () => {
    const server = await startServer([{ response: recorded("redacted-tool-call") }]);
    await adapter({ baseURL: server.url, thinking: { type: "enabled", budget_tokens: 1024 } }).prompt(
      { messages, output: { name: "propose", schema } },
      async () => {},
    );
    const toolConfig = server.script.body(0)["toolConfig"] as Record<string, unknown>;
    expect(toolConfig["toolChoice"]).toBeUndefined();
    expect(toolConfig["tools"]).toHaveLength(1);
  });
});

describe("Bedrock structured output with redacted reasoning (recorded Converse JSON)", () => {
  it("the forced tool's input is the answer; the redacted block is kept and goes back first", async () => {
    const server = await startServer([
      { response: recorded("redacted-forced-tool-whole") },
      { response: recorded("thinking-whole") },
    ]);
    const model = adapter({ baseURL: server.url, stream: false });
    const first = await model.prompt({ messages, output: { name: "json", schema } }, async () => {});
    const reply = first.messages[0]!;
    expect(reply.tool_calls).toBeUndefined();
    expect(JSON.parse(reply.text)).toEqual({
      groups: [
        { name: "Sales", parentGroupName: "" },
        { name: "Team1", parentGroupName: "Sales" },
      ],
    });
    const data = reply.reasoning_blocks?.[0]?.data;
    expect(data).toMatch(/^cnNuX3BVUGgx.*dUtnVT0=$/);

    await model.prompt(
      { messages: [...messages, JSON.parse(JSON.stringify(reply)) as Message, { sender: "user", text: "Thanks." }] },
      async () => {},
    );
    const sent = server.script.body(1)["messages"] as Array<{ content: unknown[] }>;
    expect(sent[1]!.content).toEqual([{ reasoningContent: { redactedContent: data } }, { text: reply.text }]);
  });
});
