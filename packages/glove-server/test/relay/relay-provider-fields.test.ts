/**
 * The request fields a provider needs to continue its turns (reasoning blocks, refusals, the
 * producing provider, message and call extras) and a structured-output request: kept and handed
 * to the upstream adapter as sent, shape-checked (400 with issues), inside the body's limits.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import { post, readEvents, startRelay, type RunningRelay } from "./support/harness.js";

let running: RunningRelay;
beforeAll(async () => {
  running = await startRelay(() => {
    throw new Error("replaced per test");
  });
});
afterAll(async () => {
  await running.close();
});

/** A relay whose upstream records each request and answers `ok`. */
async function withRecorder<T>(run: (relay: RunningRelay) => Promise<T>): Promise<T> {
  const relay = await startRelay(
    Array.from({ length: 200 }, () => ({ text: "ok" })),
    { limits: { requestsPerMinute: 100_000, concurrentPerPrincipal: 100 } },
  );
  try {
    return await run(relay);
  } finally {
    await relay.close();
  }
}

const agentTurn: Message = {
  sender: "agent",
  text: "Looking.",
  reasoning_content: "Need it.",
  reasoning_blocks: [
    { type: "thinking", text: "Need it.", signature: "c2ln", provider: "anthropic" },
    { type: "redacted_thinking", data: "b3BhcXVl", provider: "anthropic" },
  ],
  provider: "anthropic",
  provider_extras: { reasoning_details: [{ type: "reasoning.encrypted", data: "x", index: 0 }] },
  tool_calls: [
    {
      tool_name: "look",
      input_args: { q: 1 },
      id: "c1",
      provider_extras: { extra_content: { google: { thought_signature: "sig" } } },
    },
  ],
};
const refusal: Message = { sender: "agent", text: "I can't.", is_refusal: true, provider: "openai" };
const output = {
  name: "calendar_event",
  description: "An event.",
  schema: { type: "object", properties: { name: { type: "string" } } },
};

describe("the relay keeps provider state and structured-output requests", () => {
  it("hands them to the upstream adapter as sent (unknown keys inside a reasoning block dropped)", async () => {
    await withRecorder(async (relay) => {
      const messages = [
        { sender: "user", text: "q" },
        { ...agentTurn, reasoning_blocks: agentTurn.reasoning_blocks!.map((b) => ({ ...b, junk: 1 })) },
        refusal,
      ];
      const response = await post(relay.url, { messages, output });
      expect(response.status).toBe(200);
      expect((await readEvents(response)).at(-1)!.event).toBe("result");
      const request = relay.built[0]!.adapter.requests[0]!;
      expect(request.messages).toEqual([{ sender: "user", text: "q" }, agentTurn, refusal]);
      expect(request.output).toEqual(output);
    });
  });

  it("answers 400 naming each field of the wrong shape", async () => {
    const response = await post(running.url, {
      messages: [
        {
          sender: "agent",
          text: "",
          reasoning_blocks: [{ type: "summary" }, { type: "thinking", signature: 7 }],
          is_refusal: "yes",
          provider: 3,
          provider_extras: ["x"],
          tool_calls: [{ tool_name: "f", provider_extras: "x" }],
        },
      ],
      output: { name: "has space", schema: [] },
    });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { issues: Array<{ path: string }> } };
    expect(error.issues.map((i) => i.path).sort()).toEqual(
      [
        "messages.0.reasoning_blocks.0.type",
        "messages.0.reasoning_blocks.1.signature",
        "messages.0.is_refusal",
        "messages.0.provider",
        "messages.0.provider_extras",
        "messages.0.tool_calls.0.provider_extras",
        "output.name",
        "output.schema",
      ].sort(),
    );
    const missing = await post(running.url, { messages: [{ sender: "user", text: "q" }], output: { name: "x" } });
    expect(missing.status).toBe(400);
  });

  it("applies the body's depth limit inside extras and output schemas", async () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 80; i++) deep = { d: deep };
    for (const body of [
      { messages: [{ sender: "agent", text: "", provider_extras: deep }] },
      { messages: [{ sender: "user", text: "q" }], output: { name: "o", schema: deep } },
    ]) {
      const response = await post(running.url, body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain("deeper");
    }
  });

  it("property: any JSON object as extras (message and call) or output schema reaches the upstream unchanged", async () => {
    const object = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 5 });
    await withRecorder(async (relay) => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(
          object,
          object,
          object,
          fc.string({ maxLength: 20 }),
          async (messageExtras, callExtras, schema, provider) => {
            const messages = [
              { sender: "user", text: "q" },
              {
                sender: "agent",
                text: "",
                provider,
                provider_extras: messageExtras,
                tool_calls: [{ tool_name: "f", input_args: {}, id: "c", provider_extras: callExtras }],
              },
              {
                sender: "user",
                text: "",
                tool_results: [{ tool_name: "f", call_id: "c", result: { status: "success", data: 1 } }],
              },
            ];
            const sent = { messages, output: { name: "o", schema } };
            const response = await post(relay.url, sent);
            expect(response.status).toBe(200);
            await response.text();
            const request = relay.built[n++]!.adapter.requests[0]!;
            // Compared with what JSON carries (-0 arrives as 0).
            const expected = JSON.parse(JSON.stringify(sent)) as typeof sent;
            expect(request.messages).toEqual(expected.messages);
            expect(request.output).toEqual(expected.output);
          },
        ),
        { numRuns: 100 },
      );
    });
  });
});
