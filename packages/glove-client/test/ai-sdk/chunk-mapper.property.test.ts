/**
 * Properties of the mapping, on generated turns (model calls with text and tool calls, results of
 * every status): every chunk is one the AI SDK's schema accepts, the folded message is a valid
 * UIMessage holding the turn's text and tools, and a turn watched live (text in arbitrary deltas)
 * builds the same message as its replay from the stored history after a reload.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeValidateUIMessages, uiMessageChunkSchema, type UIMessageChunk } from "ai";
import type { Message, ToolResultData } from "glove-core";
import { ChunkMapper } from "glove-client/ai-sdk";
import { historyEvents } from "../../src/ai-sdk/history.js";
import { foldChunks, toUIMessages } from "../../src/ai-sdk/ui-messages.js";
import type { WireEvent } from "../../src/types/wire.js";

interface GeneratedCall {
  name: string;
  input: Record<string, unknown>;
  result: ToolResultData;
}
interface GeneratedStep {
  text: string;
  /** Where the live stream cut the text into deltas. */
  cuts: number[];
  calls: GeneratedCall[];
  /** Times the model call was sent again before it answered (model_retry events, shown as nothing). */
  retries: number;
}

const json = fc.jsonValue({ maxDepth: 2 });
const result: fc.Arbitrary<ToolResultData> = fc.oneof(
  fc.record({ status: fc.constant("success" as const), data: json }),
  fc.record(
    {
      status: fc.constantFrom("error" as const, "aborted" as const),
      data: json,
      message: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
    },
    { requiredKeys: ["status", "data"] },
  ),
);
const step: fc.Arbitrary<GeneratedStep> = fc.record({
  text: fc.string({ maxLength: 40 }),
  cuts: fc.array(fc.nat({ max: 40 }), { maxLength: 5 }),
  calls: fc.array(
    fc.record({
      name: fc.constantFrom("get_weather", "send_email", "search"),
      input: fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), json, { maxKeys: 3 }),
      result,
    }),
    { maxLength: 2 },
  ),
  retries: fc.nat({ max: 2 }),
});
/** A turn: model calls; every one but the last has tool calls (the loop goes on after tools). */
const turn = fc
  .array(step, { minLength: 1, maxLength: 4 })
  .map((steps) =>
    steps.map((s, i) =>
      i < steps.length - 1 && s.calls.length === 0
        ? { ...s, calls: [{ name: "search", input: {}, result: { status: "success" as const, data: i } }] }
        : s,
    ),
  );

function withIds(steps: GeneratedStep[]) {
  let n = 0;
  return steps.map((s) => ({ ...s, calls: s.calls.map((c) => ({ ...c, id: `call-${++n}` })) }));
}

function stored(steps: ReturnType<typeof withIds>): Message[] {
  return steps.flatMap((s): Message[] => {
    const agent: Message = {
      sender: "agent",
      text: s.text,
      ...(s.calls.length
        ? { tool_calls: s.calls.map((c) => ({ tool_name: c.name, input_args: c.input, id: c.id })) }
        : {}),
    };
    if (s.calls.length === 0) return [agent];
    return [
      agent,
      {
        sender: "user",
        text: "",
        tool_results: s.calls.map((c) => ({ tool_name: c.name, call_id: c.id, result: c.result })),
      },
    ];
  });
}

function live(steps: ReturnType<typeof withIds>): WireEvent[] {
  return steps.flatMap((s): WireEvent[] => {
    const bounds = [...new Set([0, ...s.cuts.filter((c) => c < s.text.length), s.text.length])].sort((a, b) => a - b);
    const deltas = bounds
      .slice(1)
      .map((end, i) => s.text.slice(bounds[i], end))
      .filter((d) => d !== "");
    const calls = s.calls.map((c) => ({ tool_name: c.name, input_args: c.input, id: c.id }));
    return [
      ...Array.from({ length: s.retries }, (_, i): WireEvent => ({
        type: "model_retry",
        provider: "openai",
        attempt: i + 1,
        delay_ms: 0,
        status: 503,
        reason: "busy",
      })),
      ...deltas.map((text): WireEvent => ({ type: "text_delta", text })),
      ...s.calls.map((c): WireEvent => ({ type: "tool_use", id: c.id, name: c.name, input: c.input })),
      { type: "model_response_complete", text: s.text, ...(calls.length ? { tool_calls: calls } : {}) },
      ...s.calls.map((c): WireEvent => ({
        type: "tool_use_result",
        tool_name: c.name,
        call_id: c.id,
        result: c.result,
      })),
    ];
  });
}

function chunksOf(events: WireEvent[]): UIMessageChunk[] {
  const mapper = new ChunkMapper("turn");
  return [...mapper.start("reply"), ...events.flatMap((e) => mapper.event(e).chunks), ...mapper.end("done")];
}

const schema = uiMessageChunkSchema();

describe("the chunk mapping (property)", () => {
  it("writes only chunks the AI SDK accepts, folding into a valid message with the turn's text and tools", async () => {
    await fc.assert(
      fc.asyncProperty(turn, async (generated) => {
        const steps = withIds(generated);
        const chunks = chunksOf(live(steps));
        for (const chunk of chunks) expect((await schema.validate!(chunk)).success, JSON.stringify(chunk)).toBe(true);
        const message = (await foldChunks(chunks))!;
        expect((await safeValidateUIMessages({ messages: [message] })).success).toBe(true);
        expect(message.parts.flatMap((p) => (p.type === "text" ? [p.text] : []))).toEqual(
          steps.map((s) => s.text).filter((t) => t !== ""),
        );
        const tools = message.parts.filter((p) => p.type.startsWith("tool-"));
        const calls = steps.flatMap((s) => s.calls);
        expect(tools.map((p) => [p.type, (p as { toolCallId: string }).toolCallId])).toEqual(
          calls.map((c) => [`tool-${c.name}`, c.id]),
        );
        calls.forEach((call, i) => {
          const part = tools[i] as { state: string; output?: unknown; input: unknown };
          expect(part.input).toEqual(call.input);
          if (call.result.status === "success")
            expect(part).toMatchObject({ state: "output-available", output: call.result.data });
          else expect(part.state).toBe("output-error");
        });
        // A step per model call that said or did something.
        expect(message.parts.filter((p) => p.type === "step-start")).toHaveLength(
          steps.filter((s) => s.text !== "" || s.calls.length > 0).length,
        );
      }),
      { numRuns: 150 },
    );
  });

  it("a turn seen live and the same turn replayed from the store build the same message", async () => {
    await fc.assert(
      fc.asyncProperty(turn, async (generated) => {
        const steps = withIds(generated);
        const watched = await foldChunks(chunksOf(live(steps)));
        const replayed = await foldChunks(chunksOf(historyEvents(stored(steps))));
        expect(replayed).toEqual(watched);
      }),
      { numRuns: 150 },
    );
  });

  it("a whole history loads as alternating user and assistant messages, each exchange's text in order", async () => {
    const exchange = fc.record({ said: fc.string({ minLength: 1, maxLength: 20 }), turn });
    await fc.assert(
      fc.asyncProperty(fc.array(exchange, { minLength: 1, maxLength: 4 }), async (history) => {
        let n = 0;
        const messages: Message[] = history.flatMap(({ said, turn: generated }) => {
          const steps = withIds(generated).map((s) => ({
            ...s,
            calls: s.calls.map((c) => ({ ...c, id: `${c.id}-${n}` })),
          }));
          n++;
          return [{ sender: "user" as const, text: said, id: `user-${n}` }, ...stored(steps)];
        });
        const loaded = await toUIMessages({
          id: "c",
          messages,
          slots: [],
          tasks: [],
          inbox: [],
          busy: false,
          turnId: null,
          streamingText: "",
        });
        expect((await safeValidateUIMessages({ messages: loaded })).success).toBe(true);
        const users = loaded.filter((m) => m.role === "user");
        expect(users.map((m) => m.parts)).toEqual(history.map(({ said }) => [{ type: "text", text: said }]));
        loaded.forEach((message, i) => {
          if (message.role === "assistant") expect(loaded[i - 1]).toMatchObject({ role: "user" });
        });
        const texts = loaded
          .filter((m) => m.role === "assistant")
          .flatMap((m) => m.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])));
        expect(texts).toEqual(
          history.flatMap(({ turn: generated }) => generated.map((s) => s.text).filter((t) => t !== "")),
        );
      }),
      { numRuns: 80 },
    );
  });
});
