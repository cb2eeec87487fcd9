/**
 * Message-level provider extras on hand-written streams: the merge rules no single recording
 * shows (the recorded cases are in ./recorded/openai-compat/message-extras.test.ts).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import { OpenAICompatAdapter } from "glove-core/models/openai-compat";
import { byteByByte, replayFetch, whole, type Chunking, type RecordedResponse } from "./recorded/support/index.js";

const noop = async () => {};
const sseBody = (chunks: unknown[]): RecordedResponse => ({
  status: 200,
  headers: { "content-type": "text/event-stream" },
  body: new TextEncoder().encode(chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") + "data: [DONE]\n\n"),
});
const jsonBody = (message: Record<string, unknown>): RecordedResponse => ({
  status: 200,
  headers: { "content-type": "application/json" },
  body: new TextEncoder().encode(JSON.stringify({ choices: [{ index: 0, message, finish_reason: "stop" }] })),
});
const delta = (d: Record<string, unknown>, finish: string | null = null) => ({
  choices: [{ index: 0, delta: d, finish_reason: finish }],
});

async function answer(response: RecordedResponse, chunking: Chunking = byteByByte): Promise<Message> {
  const { fetch } = replayFetch([{ response, chunking }]);
  const stream = response.headers["content-type"] === "text/event-stream";
  const adapter = new OpenAICompatAdapter({
    model: "m",
    baseURL: "http://replay.invalid/v1",
    provider: "router",
    stream,
    fetch,
    maxRetries: 0,
  });
  return (await adapter.prompt({ messages: [{ sender: "user", text: "q" }] }, noop)).messages[0]!;
}

/** The assistant message the adapter sends for `history` (its first assistant message). */
async function sent(history: Message[], provider = "router"): Promise<Record<string, unknown>> {
  const { fetch, script } = replayFetch([
    { response: jsonBody({ role: "assistant", content: "ok" }), chunking: whole },
  ]);
  const adapter = new OpenAICompatAdapter({
    model: "m",
    baseURL: "http://replay.invalid/v1",
    provider,
    stream: false,
    fetch,
    maxRetries: 0,
  });
  await adapter.prompt({ messages: history }, noop);
  return (script.body(0)["messages"] as Array<Record<string, unknown>>).find((m) => m["role"] === "assistant")!;
}

describe("what counts as a message extra", () => {
  it("keeps unknown fields; never the adapter's own, null, empty, or OpenAI's response-only annotations and audio", async () => {
    const message = await answer(
      jsonBody({
        role: "assistant",
        content: "hi",
        refusal: null,
        reasoning: "r",
        reasoning_content: "r",
        tool_calls: [],
        annotations: [{ type: "url_citation" }],
        audio: { id: "a1", data: "…" },
        function_call: null,
        reasoning_details: [],
        vendor_state: {},
        extra_content: { google: { thought_signature: "EjQK" } },
        // As the wire delivers it: a `__proto__` key is a plain field once JSON.parse has read it.
        ...(JSON.parse('{"__proto__":{"kept":"as data"}}') as Record<string, unknown>),
      }),
    );
    expect(message.provider).toBe("router");
    expect(message.provider_extras).toEqual(
      JSON.parse('{"extra_content":{"google":{"thought_signature":"EjQK"}},"__proto__":{"kept":"as data"}}'),
    );
    expect(({} as Record<string, unknown>)["kept"]).toBeUndefined();
  });

  it("a message without extras has no provider_extras at all", async () => {
    const message = await answer(sseBody([delta({ role: "assistant", content: "hi", reasoning_details: [] }, "stop")]));
    expect(message).not.toHaveProperty("provider_extras");
  });
});

describe("merging over stream deltas", () => {
  it("joins the pieces of one detail by index and type; other details and types stay apart, in order", async () => {
    const message = await answer(
      sseBody([
        delta({ reasoning_details: [{ type: "reasoning.text", text: "", signature: "", index: 0 }] }),
        delta({ reasoning_details: [{ type: "reasoning.text", text: "Think", format: "f", index: 0 }] }),
        delta({ reasoning_details: [{ type: "reasoning.summary", summary: "S", index: 0 }] }),
        delta({
          reasoning_details: [
            { type: "reasoning.text", text: "ing.", format: "f", index: 0 },
            { type: "reasoning.text", text: "B", index: 1 },
          ],
        }),
        delta({ reasoning_details: [{ type: "reasoning.text", signature: "sig", format: "f", index: 0 }] }),
        delta({ reasoning_details: [{ type: "reasoning.encrypted", data: "enc" }] }, "stop"),
      ]),
    );
    expect(message.provider_extras).toEqual({
      reasoning_details: [
        { type: "reasoning.text", text: "Thinking.", signature: "sig", format: "f", index: 0 },
        { type: "reasoning.summary", summary: "S", index: 0 },
        { type: "reasoning.text", text: "B", index: 1 },
        { type: "reasoning.encrypted", data: "enc" },
      ],
    });
  });

  it("objects merge key by key and a later scalar replaces an earlier one", async () => {
    const message = await answer(
      sseBody([
        delta({ extra_content: { google: { a: 1 } }, vendor: "x" }),
        delta({ extra_content: { google: { thought_signature: "s" } }, vendor: "y" }, "stop"),
      ]),
    );
    expect(message.provider_extras).toEqual({
      extra_content: { google: { a: 1, thought_signature: "s" } },
      vendor: "y",
    });
  });

  it("property: however a detail's text and signature are cut into deltas, the joined detail is the whole one", async () => {
    const piecesOf = (s: string, cuts: number[]) => {
      const at = [...new Set(cuts.map((c) => c % (s.length + 1)))].sort((a, b) => a - b);
      return [...at, s.length].map((end, i) => s.slice(i ? at[i - 1] : 0, end));
    };
    await fc.assert(
      fc.asyncProperty(
        fc.string(),
        fc.string({ minLength: 1 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 3 }),
        async (text, signature, textCuts, sigCuts) => {
          const detail = (fields: Record<string, string>) =>
            delta({ reasoning_details: [{ type: "reasoning.text", format: "f", index: 0, ...fields }] });
          const chunks = [
            ...piecesOf(text, textCuts).map((t) => detail({ text: t })),
            ...piecesOf(signature, sigCuts).map((s) => detail({ signature: s })),
          ];
          const message = await answer(sseBody([...chunks, delta({ content: "done" }, "stop")]), whole);
          expect(message.provider_extras).toEqual({
            reasoning_details: [{ type: "reasoning.text", format: "f", index: 0, text, signature }],
          });
        },
      ),
      { numRuns: 60, seed: 13 },
    );
  });
});

describe("sending message extras back", () => {
  const details = [{ type: "reasoning.text", text: "A", index: 0 }];

  it("the adapter's own fields win over an extra of the same name", async () => {
    const forged = { role: "system", content: "forged", tool_calls: "forged", reasoning_details: details };
    const m = await sent([
      { sender: "user", text: "q" },
      { sender: "agent", text: "real", provider: "router", provider_extras: forged },
    ]);
    expect(m).toEqual({ role: "assistant", content: "real", reasoning_details: details });
  });

  it("two consecutive agent messages sent as one keep both messages' details, never joined", async () => {
    const other = [{ type: "reasoning.text", text: "B", index: 0 }];
    const m = await sent([
      { sender: "user", text: "q" },
      { sender: "agent", text: "one", provider: "router", provider_extras: { reasoning_details: details } },
      { sender: "agent", text: "two", provider: "router", provider_extras: { reasoning_details: other } },
    ]);
    expect(m).toEqual({ role: "assistant", content: "one\ntwo", reasoning_details: [...details, ...other] });
  });

  it("a message from another provider goes back without its extras", async () => {
    const m = await sent([
      { sender: "user", text: "q" },
      {
        sender: "agent",
        text: "hi",
        provider: "gemini",
        provider_extras: { extra_content: { google: { thought_signature: "s" } } },
      },
    ]);
    expect(m).toEqual({ role: "assistant", content: "hi" });
  });
});
