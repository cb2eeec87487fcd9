/**
 * The request inspector's log (decision 0055), recorded from a real Glove whose real
 * OpenAI-compatible adapter talks to a provider on 127.0.0.1: each call's exact request comes back
 * whole from a record that refers to earlier calls, no API key is stored, an opted-out storage
 * records none (its timing still), and the per-turn and per-string bounds hold.
 */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Displaymanager, Glove, MemoryStore, type IGloveRunnable } from "glove-core";
import { OpenAICompatAdapter } from "glove-core/models/openai-compat";
import { TurnTracing } from "../../src/conversations/turn-tracing.js";
import { MemoryTraceStore } from "../../src/storage/inspect/memory-trace-store.js";
import { resolveRecordedCall } from "../../src/storage/inspect/resolve-call.js";
import { traceLimits, type TraceLimits } from "../../src/storage/inspect/trace-limits.js";
import type { TurnTrace } from "../../src/storage/inspect/types.js";
import { startFakeOpenAI, type FakeOpenAI } from "../support/fake-openai.js";

const API_KEY = "sk-live-REQUESTLOG-0123456789";
let provider: FakeOpenAI | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

/** A conversation as glove-server runs it: its Glove, its trace store and the turn tracing between them. */
async function conversation(limits: Partial<TraceLimits> = {}) {
  provider = await startFakeOpenAI();
  const store = new MemoryTraceStore(traceLimits(limits));
  const glove: IGloveRunnable = new Glove({
    store: new MemoryStore("c1"),
    model: new OpenAICompatAdapter({
      model: "gpt-4o-mini",
      baseURL: `${provider.url}/v1`,
      apiKey: API_KEY,
      retryBaseDelayMs: 5,
    }),
    displayManager: new Displaymanager(),
    systemPrompt: "You are a weather bot.",
    compaction_config: { compaction_instructions: "Summarize." },
  })
    .fold({
      name: "get_weather",
      description: "Weather for a city.",
      inputSchema: z.object({ city: z.string() }),
      async do(input) {
        return { status: "success", data: { city: input.city, sky: "sunny" } };
      },
    })
    .build();
  const tracing = new TurnTracing(
    store,
    "c1",
    () => "gpt-4o-mini",
    () => undefined,
  );
  let turn: string | undefined;
  // What live-conversation.ts does for subscriber events, and the one line it adds for model calls.
  glove.addSubscriber({ record: (...event) => tracing.observe(turn, ...event) });
  tracing.attach(glove, () => turn);
  const run = async (turnId: string, text: string) => {
    turn = turnId;
    await glove.processRequest(text);
    await tracing.end(turnId, "done");
    turn = undefined;
    return (await store.get("c1", turnId))!;
  };
  return { store, run, provider };
}

const callsChars = (trace: TurnTrace) => JSON.stringify(trace.calls ?? []).length;

describe("request log", () => {
  it("gives back each call's exact request from records that refer to earlier calls, and never stores the key", async () => {
    const { store, run, provider } = await conversation();
    provider.answers.push(
      { status: 429, message: "slow down", retryAfterMs: 20 },
      { tool: "get_weather", args: { city: "Tokyo" }, id: "call_w" },
      { text: "Sunny in Tokyo." },
      { text: "You are welcome." },
    );
    const first = await run("t1", "Weather in Tokyo?");
    const second = await run("t2", "Thanks!");

    // The key reached the provider and is nowhere in storage.
    expect(provider.received[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(JSON.stringify([first, second])).not.toContain(API_KEY);

    expect(first.calls?.map((c) => c.request.form)).toEqual(["wire", "wire"]);
    const [c1, c2] = first.calls!;
    const [c3] = second.calls!;
    // Each call after the first refers to the one before it and adds what is new.
    expect(c2!.request.base).toEqual({ turnId: "t1", callId: c1!.callId });
    expect(c2!.request.keep).toBe(2);
    expect(c2!.request.added).toHaveLength(2);
    expect(c2!.request.sameRestAsBase).toBe(true);
    expect(c3!.request.base).toEqual({ turnId: "t1", callId: c2!.callId });
    expect(c3!.request.keep).toBe(4);
    expect(c3!.request.added).toHaveLength(2);

    // Made whole, every call is the body the provider received (the 429's retry sent the same body).
    const bodies = provider.received.slice(1).map((r) => JSON.parse(r.raw) as unknown);
    for (const [turnId, call, body] of [
      ["t1", c1, bodies[0]],
      ["t1", c2, bodies[1]],
      ["t2", c3, bodies[2]],
    ] as const) {
      const resolved = await resolveRecordedCall(store, "c1", turnId, call!.callId);
      expect(resolved?.body).toEqual(body);
      expect(resolved?.missing).toBe(0);
    }

    // What changed since the previous call of the turn: the model's tool call and its result.
    const diff = (await resolveRecordedCall(store, "c1", "t1", c2!.callId))!.previous!;
    expect(diff.callId).toBe(c1!.callId);
    expect(diff.keptMessages).toBe(2);
    expect(diff.removed).toEqual([]);
    expect(diff.added.map((m) => (m as { role: string }).role)).toEqual(["assistant", "tool"]);
    expect(diff.restBefore).toBeUndefined();

    // The answer as read, with its timing; the span carries time to first token and the attempts.
    expect(c1!.answer).toMatchObject({ finishReason: "tool_calls", usage: { tokens_in: 10, tokens_out: 2 } });
    expect(c1!.answer?.toolCalls?.[0]).toMatchObject({ tool_name: "get_weather", input_args: { city: "Tokyo" } });
    expect(c1!.attempts?.map((a) => a.outcome)).toEqual(["retried", "ok"]);
    const span = first.spans.find((s) => s.spanId === c1!.spanId)!;
    expect(span.kind).toBe("model_call");
    expect(span.attributes["glove.time_to_first_token_ms"]).toEqual(expect.any(Number));
    const attempts = JSON.parse(String(span.attributes["glove.attempts"])) as Array<Record<string, unknown>>;
    expect(attempts.map((a) => [a.outcome, a.status, a.delayMs])).toEqual([
      ["retried", 429, 20],
      ["ok", undefined, undefined],
    ]);
    expect(String(attempts[0]!.cause)).toContain("slow down");
    expect(c1!.headers?.authorization).toBe("[redacted]");
  });

  it("records no request or answer when the storage opts out, and keeps the timing", async () => {
    const { run, provider } = await conversation({ requestLog: false });
    provider.answers.push({ text: "Hello." });
    const trace = await run("t1", "Hi, my secret plan is X");
    expect(trace.calls).toBeUndefined();
    expect(JSON.stringify(trace)).not.toContain("secret plan");
    expect(trace.spans[0]!.attributes["glove.time_to_first_token_ms"]).toEqual(expect.any(Number));
  });

  it("cuts a long string in a recorded call", async () => {
    const { run, provider } = await conversation();
    provider.answers.push({ text: "done" });
    const trace = await run("t1", "x".repeat(100_000));
    expect(trace.calls![0]!.clipped).toBe(true);
    expect(JSON.stringify(trace.calls![0]).length).toBeLessThan(40_000);
    expect(JSON.stringify(trace.calls![0]!.request.added)).toContain("more characters not recorded");
  });

  it("keeps only the timing of calls past the per-turn bound", async () => {
    const { run, provider } = await conversation({ requestCharsPerTurn: 30_000 });
    const city = "A".repeat(20_000);
    provider.answers.push({ tool: "get_weather", args: { city }, id: "a" }, { text: "done" });
    const trace = await run("t1", "Weather?");
    const [first, second] = trace.calls!;
    // The first call (its answer's 20 000-character argument included) fits; the second, which
    // sends that argument and the tool's result, does not: its timing and usage stay.
    expect(first!.clipped).toBeUndefined();
    expect(JSON.stringify(first).length).toBeLessThan(30_000);
    expect(second).toMatchObject({ clipped: true, request: { added: [], keep: 0 } });
    expect(second!.answer).toEqual({ finishReason: "stop", usage: { tokens_in: 10, tokens_out: 2 } });
    expect(second!.attempts).toHaveLength(1);
    expect(JSON.stringify(trace.calls).length).toBeLessThan(30_000 + 2_000);
  });

  it("stores about the same per turn however long the conversation grows", async () => {
    const { run, provider } = await conversation();
    const sizes: number[] = [];
    for (let turn = 1; turn <= 30; turn++) {
      provider.answers.push({ text: `Answer ${turn}: ${"lorem ipsum ".repeat(20)}` });
      sizes.push(callsChars(await run(`t${turn}`, `Question ${turn}: ${"dolor sit amet ".repeat(20)}`)));
    }
    // Turn 30 sends 59 messages, turn 2 three: what each stores stays within a few percent.
    expect(sizes[29]! / sizes[1]!).toBeLessThan(1.2);
  });
});
