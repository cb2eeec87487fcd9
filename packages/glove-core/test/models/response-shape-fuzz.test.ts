/**
 * Every adapter family against provider answers of the wrong shape: a valid response (streamed or
 * whole) with arbitrary JSON values (fast-check `jsonValue()`) substituted into its fields, or
 * fields and events removed, served over real HTTP by the fake provider. The adapter must either
 * return a valid ModelPromptResult or reject with a ProviderError from its shape checks — never a
 * TypeError/RangeError/SyntaxError, never the last-resort "could not read the response" error,
 * never a hang.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderError, type ModelAdapter, type ModelPromptResult } from "glove-core";
import { AnthropicAdapter } from "glove-core/models/anthropic";
import { BedrockAdapter } from "glove-core/models/bedrock";
import { OpenAICompatAdapter } from "glove-core/models/openai-compat";
import { encodeEventStreamMessage } from "../../src/models/shared/aws.js";
import { UNREADABLE_RESPONSE_CODE } from "../../src/models/shared/http-adapter.js";
import { MALFORMED_RESPONSE_CODE } from "../../src/models/shared/wire-shape.js";
import { PROMPT_WAIT_MS, SLOW_WORK_MS } from "../../../../test-support/timeouts.js";
import { recorder, startFakeServer, type FakeServer, type RecordedEvent } from "./fake-server.js";

/** One event of a stream (or the whole body, for a JSON answer): `name` is its SSE / event-stream type. */
interface Entry {
  name: string;
  data: unknown;
}

type Path = Array<string | number>;
const DELETE = Symbol("delete");
type Replacement = unknown | typeof DELETE;

/** Every position inside `value` (not the root itself). */
function innerPaths(value: unknown, prefix: Path = []): Path[] {
  if (typeof value !== "object" || value === null) return [];
  const out: Path[] = [];
  const keys: Array<string | number> = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  for (const key of keys) {
    const path = [...prefix, key];
    out.push(path, ...innerPaths((value as Record<string | number, unknown>)[key], path));
  }
  return out;
}

/** Positions of a stream: each entry whole ([i]) and every field inside its data ([i, ...]). */
function positions(entries: Entry[]): Path[] {
  return entries.flatMap((entry, i) => [[i], ...innerPaths(entry.data, [i])]);
}

function setIn(value: unknown, path: Path, replacement: Replacement): unknown {
  if (path.length === 0) return replacement;
  const [key, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = value.slice();
    const i = key as number;
    if (rest.length === 0 && replacement === DELETE) copy.splice(i, 1);
    else copy[i] = setIn(copy[i], rest, replacement);
    return copy;
  }
  const copy = { ...(value as Record<string, unknown>) };
  if (rest.length === 0 && replacement === DELETE) delete copy[key as string];
  else
    Object.defineProperty(copy, key as string, {
      value: setIn(copy[key as string], rest, replacement),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return copy;
}

function mutate(entries: Entry[], path: Path, replacement: Replacement): Entry[] {
  const [i, ...rest] = path as [number, ...Path];
  const out = entries.slice();
  if (rest.length === 0 && replacement === DELETE) out.splice(i, 1);
  else
    out[i] = {
      name: entries[i]!.name,
      data: rest.length === 0 ? replacement : setIn(entries[i]!.data, rest, replacement),
    };
  return out;
}

const mutation = fc.record({
  at: fc.nat(),
  value: fc.oneof({ weight: 4, arbitrary: fc.jsonValue() }, { weight: 1, arbitrary: fc.constant<Replacement>(DELETE) }),
});
const mutations = fc.array(mutation, { minLength: 1, maxLength: 3 });

function apply(base: Entry[], changes: Array<{ at: number; value: Replacement }>): Entry[] {
  let entries = base;
  for (const change of changes) {
    const all = positions(entries);
    if (all.length === 0) break;
    entries = mutate(entries, all[change.at % all.length]!, change.value);
  }
  return entries;
}

// ── What every answer must look like ─────────────────────────────────────────────────────────

function isCount(value: unknown): boolean {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function checkResult(result: ModelPromptResult): void {
  expect(Array.isArray(result.messages)).toBe(true);
  expect(isCount(result.tokens_in), `tokens_in ${String(result.tokens_in)}`).toBe(true);
  expect(isCount(result.tokens_out), `tokens_out ${String(result.tokens_out)}`).toBe(true);
  for (const m of result.messages) {
    expect(m.sender).toBe("agent");
    expect(typeof m.text).toBe("string");
    if (m.reasoning_content !== undefined) expect(typeof m.reasoning_content).toBe("string");
    if (m.tool_calls !== undefined) {
      expect(Array.isArray(m.tool_calls)).toBe(true);
      for (const call of m.tool_calls) {
        expect(typeof call.tool_name === "string" && call.tool_name !== "", "a tool call has a name").toBe(true);
        if (call.id !== undefined) expect(typeof call.id).toBe("string");
        expect(JSON.stringify(call.input_args ?? null)).not.toContain("[object Object]");
      }
    }
  }
}

function checkEvents(events: RecordedEvent[]): void {
  for (const e of events) {
    if (e.type === "text_delta") expect(typeof e.data.text).toBe("string");
    if (e.type === "tool_use") {
      expect(typeof e.data.name === "string" && e.data.name !== "", "a tool_use event has a name").toBe(true);
      expect(typeof e.data.id).toBe("string");
    }
    if (e.type === "model_response" || e.type === "model_response_complete") {
      expect(typeof e.data.text).toBe("string");
      expect(isCount(e.data.tokens_in) && isCount(e.data.tokens_out)).toBe(true);
      if (e.data.stop_reason !== undefined) expect(typeof e.data.stop_reason).toBe("string");
    }
  }
}

/** Prompts once; the outcome must be a valid result or a ProviderError of the shape checks, within the time limit. */
async function promptChecked(adapter: ModelAdapter): Promise<"ok" | "provider-error"> {
  const rec = recorder();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    // Past the adapter's own timeout (below): only an adapter that ignores it gets here.
    timer = setTimeout(() => reject(new Error("the adapter hung")), PROMPT_WAIT_MS);
  });
  try {
    const result = await Promise.race([
      adapter.prompt({ messages: [{ sender: "user", text: "Weather in Oslo?" }] }, rec.notify),
      hung,
    ]);
    checkResult(result);
    checkEvents(rec.events);
    return "ok";
  } catch (error) {
    if (error instanceof Error && error.message === "the adapter hung") throw error;
    if (!ProviderError.isInstance(error))
      throw new Error(`expected a ProviderError, got ${String(error)}`, { cause: error });
    expect(error.providerCode, error.message).not.toBe(UNREADABLE_RESPONSE_CODE);
    expect(error.provider).toBeTruthy();
    expect(error.message).toContain(error.provider);
    checkEvents(rec.events);
    return "provider-error";
  } finally {
    clearTimeout(timer);
  }
}

// ── The fake provider: serves whatever entries the current run holds ─────────────────────────

type Encoding = "sse" | "anthropic-sse" | "json" | "eventstream";
let server: FakeServer;
let current: { entries: Entry[]; encoding: Encoding } = { entries: [], encoding: "json" };

function sseText(e: Entry, named: boolean): string {
  if (e.name === "raw" && typeof e.data === "string") return `data: ${e.data}\n\n`;
  if (!named) return `data: ${JSON.stringify(e.data)}\n\n`;
  const type = (e.data as { type?: unknown } | null)?.type;
  const event = typeof type === "string" && !/[\r\n]/.test(type) ? type : e.name;
  return `event: ${event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

beforeAll(async () => {
  server = await startFakeServer((_req, res) => {
    const { entries, encoding } = current;
    switch (encoding) {
      case "json":
        res.writeHead(200, { "content-type": "application/json" });
        res.end(entries.length ? JSON.stringify(entries[0]!.data) : "");
        return;
      case "eventstream":
        res.writeHead(200, { "content-type": "application/vnd.amazon.eventstream" });
        for (const e of entries) {
          res.write(
            encodeEventStreamMessage(
              { ":event-type": e.name, ":content-type": "application/json", ":message-type": "event" },
              JSON.stringify(e.data),
            ),
          );
        }
        res.end();
        return;
      default:
        res.writeHead(200, { "content-type": "text/event-stream" });
        for (const e of entries) res.write(sseText(e, encoding === "anthropic-sse"));
        res.end();
    }
  });
});
afterAll(async () => {
  await server.close();
});

// The fake server always ends its answers: a timeout means a hang, not a slow machine, so it is generous.
const common = { maxRetries: 0, timeout: PROMPT_WAIT_MS / 2 } as const;

/** Runs the property for one family; also checks the unmodified answer is read as a valid result. */
async function fuzz(
  encoding: Encoding,
  base: Entry[],
  adapter: () => ModelAdapter,
  numRuns = Number(process.env.GLOVE_FUZZ_RUNS ?? 150),
): Promise<void> {
  current = { entries: base, encoding };
  expect(await promptChecked(adapter())).toBe("ok");
  const a = adapter();
  await fc.assert(
    fc.asyncProperty(mutations, async (changes) => {
      current = { entries: apply(base, changes), encoding };
      await promptChecked(a);
    }),
    { numRuns },
  );
}

// ── Valid answers of each family ─────────────────────────────────────────────────────────────

const openAIStream: Entry[] = [
  { role: "assistant", content: "" },
  { reasoning_content: "Think." },
  { content: "Let me " },
  { content: "check." },
  { tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "get_weather", arguments: "" } }] },
  { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] },
  { tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] },
  { tool_calls: [{ index: 1, id: "call_b", function: { name: "search", arguments: '{"q":"rain"}' } }] },
]
  .map((delta): Entry => ({
    name: "chunk",
    data: { id: "c1", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: null }] },
  }))
  .concat([
    { name: "chunk", data: { id: "c1", choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] } },
    {
      name: "chunk",
      data: { id: "c1", choices: [], usage: { prompt_tokens: 42, completion_tokens: 17, total_tokens: 59 } },
    },
    { name: "raw", data: "[DONE]" },
  ]);

const openAIJson: Entry[] = [
  {
    name: "body",
    data: {
      id: "c2",
      object: "chat.completion",
      choices: [
        {
          index: 0,
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: "Let me check.",
            reasoning_content: "Think.",
            tool_calls: [
              { id: "call_a", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
              { id: "call_b", type: "function", function: { name: "search", arguments: '{"q":"rain"}' } },
            ],
          },
        },
      ],
      usage: { prompt_tokens: 42, completion_tokens: 17 },
    },
  },
];

const anthropicStream: Entry[] = [
  {
    type: "message_start",
    message: {
      id: "m1",
      type: "message",
      role: "assistant",
      content: [],
      usage: { input_tokens: 25, output_tokens: 1, cache_creation_input_tokens: 3, cache_read_input_tokens: 4 },
    },
  },
  { type: "ping" },
  { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Think." } },
  { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig" } },
  { type: "content_block_stop", index: 0 },
  { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Let me check." } },
  { type: "content_block_stop", index: 1 },
  {
    type: "content_block_start",
    index: 2,
    content_block: { type: "tool_use", id: "toolu_1", name: "get_weather", input: {} },
  },
  { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: '{"city":' } },
  { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: '"Oslo"}' } },
  { type: "content_block_stop", index: 2 },
  { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 15 } },
  { type: "message_stop" },
].map((data): Entry => ({ name: data.type, data }));

const anthropicJson: Entry[] = [
  {
    name: "body",
    data: {
      id: "m2",
      type: "message",
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Think.", signature: "sig" },
        { type: "text", text: "Let me check." },
        { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Oslo" } },
      ],
      stop_reason: "tool_use",
      usage: { input_tokens: 25, output_tokens: 15, cache_creation_input_tokens: 3, cache_read_input_tokens: null },
    },
  },
];

const bedrockStream: Entry[] = [
  { name: "messageStart", data: { role: "assistant" } },
  { name: "contentBlockDelta", data: { contentBlockIndex: 0, delta: { reasoningContent: { text: "Think." } } } },
  { name: "contentBlockDelta", data: { contentBlockIndex: 1, delta: { text: "Let me check." } } },
  { name: "contentBlockStop", data: { contentBlockIndex: 1 } },
  {
    name: "contentBlockStart",
    data: { contentBlockIndex: 2, start: { toolUse: { toolUseId: "tu_1", name: "get_weather" } } },
  },
  { name: "contentBlockDelta", data: { contentBlockIndex: 2, delta: { toolUse: { input: '{"city":' } } } },
  { name: "contentBlockDelta", data: { contentBlockIndex: 2, delta: { toolUse: { input: '"Oslo"}' } } } },
  { name: "contentBlockStop", data: { contentBlockIndex: 2 } },
  { name: "messageStop", data: { stopReason: "tool_use" } },
  {
    name: "metadata",
    data: {
      usage: { inputTokens: 30, outputTokens: 12, cacheReadInputTokens: 2, totalTokens: 44 },
      metrics: { latencyMs: 100 },
    },
  },
];

const bedrockJson: Entry[] = [
  {
    name: "body",
    data: {
      output: {
        message: {
          role: "assistant",
          content: [
            { reasoningContent: { reasoningText: { text: "Think.", signature: "sig" } } },
            { text: "Let me check." },
            { toolUse: { toolUseId: "tu_1", name: "get_weather", input: { city: "Oslo" } } },
          ],
        },
      },
      stopReason: "tool_use",
      usage: { inputTokens: 30, outputTokens: 12, totalTokens: 42 },
    },
  },
];

const credentials = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret" };
const openai = (stream: boolean) => () =>
  new OpenAICompatAdapter({ model: "m", baseURL: `${server.url}/v1`, apiKey: "k", stream, reasoning: true, ...common });
const anthropic = (stream: boolean) => () =>
  new AnthropicAdapter({ model: "m", baseURL: server.url, apiKey: "k", stream, ...common });
const bedrock = (stream: boolean) => () =>
  new BedrockAdapter({ model: "m", region: "us-east-1", baseURL: server.url, credentials, stream, ...common });

describe("adapters given provider answers of any shape: a valid result or a ProviderError, never a TypeError (fast-check)", () => {
  it("OpenAI-compatible, streamed", () => fuzz("sse", openAIStream, openai(true)), SLOW_WORK_MS);
  it("OpenAI-compatible, whole JSON body", () => fuzz("json", openAIJson, openai(false)), SLOW_WORK_MS);
  it("Anthropic Messages, streamed", () => fuzz("anthropic-sse", anthropicStream, anthropic(true)), SLOW_WORK_MS);
  it("Anthropic Messages, whole JSON body", () => fuzz("json", anthropicJson, anthropic(false)), SLOW_WORK_MS);
  it("Bedrock ConverseStream", () => fuzz("eventstream", bedrockStream, bedrock(true)), SLOW_WORK_MS);
  it("Bedrock Converse, whole JSON body", () => fuzz("json", bedrockJson, bedrock(false)), SLOW_WORK_MS);
});

// ── Specific shapes: the error names the provider and the field, or the answer is used ───────

async function outcome(
  encoding: Encoding,
  entries: Entry[],
  adapter: ModelAdapter,
): Promise<{ result?: ModelPromptResult; error?: ProviderError }> {
  current = { entries, encoding };
  try {
    return { result: await adapter.prompt({ messages: [{ sender: "user", text: "q" }] }, recorder().notify) };
  } catch (error) {
    if (!ProviderError.isInstance(error)) throw error;
    return { error };
  }
}

/** What a shape error says was wrong ("openai: chunk is null, expected an object"); its message goes on to say what to do. */
function headline(error: ProviderError | undefined): string | undefined {
  if (!error) return undefined;
  expect(error.providerCode).toBe(MALFORMED_RESPONSE_CODE);
  expect(error.message).toContain("retry the request");
  return `${error.provider}: ${error.providerMessage}`;
}

const chunkOf = (delta: unknown, finish: string | null = null): Entry => ({
  name: "chunk",
  data: { choices: [{ index: 0, delta, finish_reason: finish }] },
});
const DONE: Entry = { name: "raw", data: "[DONE]" };

describe("provider answers of the wrong shape", () => {
  it('OpenAI: arguments streamed as an object are used as the parsed input, never as "[object Object]"', async () => {
    const { result } = await outcome(
      "sse",
      [
        chunkOf(
          { tool_calls: [{ index: 0, id: "call_1", function: { name: "get_weather", arguments: { city: "Oslo" } } }] },
          "tool_calls",
        ),
        DONE,
      ],
      openai(true)(),
    );
    expect(result?.messages[0]!.tool_calls).toEqual([
      { tool_name: "get_weather", input_args: { city: "Oslo" }, id: "call_1" },
    ]);
    const whole = await outcome(
      "json",
      [
        {
          name: "body",
          data: {
            choices: [
              { message: { content: null, tool_calls: [{ id: "c", function: { name: "f", arguments: { a: [1] } } }] } },
            ],
          },
        },
      ],
      openai(false)(),
    );
    expect(whole.result?.messages[0]!.tool_calls).toEqual([{ tool_name: "f", input_args: { a: [1] }, id: "c" }]);
  });

  it("OpenAI: arguments of another type name the field", async () => {
    const { error } = await outcome(
      "sse",
      [chunkOf({ tool_calls: [{ index: 0, id: "c", function: { name: "f", arguments: 12 } }] }), DONE],
      openai(true)(),
    );
    expect(headline(error)).toBe(
      "openai: chunk.choices[0].delta.tool_calls[0].function.arguments is a number, expected a string (or an arguments object)",
    );
    expect(error).toMatchObject({ provider: "openai", retryable: false, status: 200 });
  });

  it("OpenAI: `data: null`, choices that are not an array, a null body, a non-string tool-call id", async () => {
    const cases: Array<[Encoding, Entry[], boolean, string]> = [
      ["sse", [{ name: "chunk", data: null }, DONE], true, "openai: chunk is null, expected an object"],
      [
        "sse",
        [{ name: "chunk", data: { choices: { 0: { delta: { content: "a" } } } } }, DONE],
        true,
        "openai: chunk.choices is an object, expected an array",
      ],
      [
        "sse",
        [chunkOf({ content: 5 }), DONE],
        true,
        "openai: chunk.choices[0].delta.content is a number, expected a string or an array of content parts",
      ],
      [
        "sse",
        [chunkOf({ tool_calls: [{ index: 0, id: 7, function: { name: "f", arguments: "{}" } }] }), DONE],
        true,
        "openai: chunk.choices[0].delta.tool_calls[0].id is a number, expected a string",
      ],
      [
        "sse",
        [chunkOf({ tool_calls: [{ index: -1, function: { name: "f" } }] }), DONE],
        true,
        "openai: chunk.choices[0].delta.tool_calls[0].index is a number, expected a non-negative integer",
      ],
      ["json", [{ name: "body", data: null }], false, "openai: response is null, expected an object"],
      [
        "json",
        [{ name: "body", data: { choices: "none" } }],
        false,
        "openai: response.choices is a string, expected an array",
      ],
      [
        "json",
        [{ name: "body", data: { choices: [] } }],
        false,
        "openai: response.choices is empty: the answer holds no message",
      ],
      [
        "json",
        [{ name: "body", data: { choices: [{ message: { tool_calls: [{ function: { name: ["f"] } }] } }] } }],
        false,
        "openai: response.choices[0].message.tool_calls[0].function.name is an array, expected a string",
      ],
    ];
    for (const [encoding, entries, stream, message] of cases) {
      const { error } = await outcome(encoding, entries, openai(stream)());
      expect(headline(error), message).toBe(message);
    }
  });

  it("OpenAI: token counts that are not non-negative integers are estimated instead", async () => {
    for (const usage of [
      { prompt_tokens: "12", completion_tokens: null },
      { prompt_tokens: -3, completion_tokens: 1.5 },
      { prompt_tokens: 1e300, completion_tokens: {} },
    ]) {
      const { result } = await outcome(
        "sse",
        [chunkOf({ content: "hello" }, "stop"), { name: "chunk", data: { choices: [], usage } }, DONE],
        openai(true)(),
      );
      expect(Number.isSafeInteger(result!.tokens_in) && result!.tokens_in > 0).toBe(true);
      expect(result!.tokens_out).toBe(2); // "hello": 5 characters, estimated at 4 a token
    }
  });

  it("Anthropic: malformed blocks and events name the field; unknown block types are skipped", async () => {
    const start = (block: unknown): Entry => ({
      name: "content_block_start",
      data: { type: "content_block_start", index: 0, content_block: block },
    });
    const stop: Entry[] = [
      { name: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
      { name: "message_stop", data: { type: "message_stop" } },
    ];
    const cases: Array<[Entry[], string]> = [
      [[start("text"), ...stop], "anthropic: content_block_start.content_block is a string, expected an object"],
      [
        [start({ type: "tool_use", id: 1, name: "f" }), ...stop],
        "anthropic: content_block_start.content_block.id is a number, expected a string",
      ],
      [
        [start({ type: "tool_use", id: "t", name: "f", input: [1] }), ...stop],
        "anthropic: content_block_start.content_block.input is an array, expected an object",
      ],
      [
        [start({ type: 3 }), ...stop],
        "anthropic: content_block_start.content_block.type is a number, expected a string",
      ],
      [
        [
          {
            name: "content_block_delta",
            data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: { a: 1 } } },
          },
          ...stop,
        ],
        "anthropic: content_block_delta.delta.text is an object, expected a string",
      ],
      [
        [{ name: "content_block_delta", data: { type: "content_block_delta", index: 0 } }, ...stop],
        "anthropic: content_block_delta.delta is absent, expected an object",
      ],
      [
        [{ name: "message_start", data: null }, ...stop],
        "anthropic: the message_start event is null, expected an object",
      ],
    ];
    for (const [entries, message] of cases) {
      const { error } = await outcome("anthropic-sse", entries, anthropic(true)());
      expect(headline(error), message).toBe(message);
    }
    const { result } = await outcome(
      "anthropic-sse",
      [start({ type: "server_tool_use", id: "s", name: "web_search", input: {} }), ...stop],
      anthropic(true)(),
    );
    expect(result?.messages).toEqual([{ sender: "agent", text: "", provider: "anthropic" }]);
    const whole = await outcome(
      "json",
      [
        {
          name: "body",
          data: {
            content: [{ type: "tool_use", id: "t", name: "f", input: '{"a":1}' }, { type: "mystery" }],
            usage: { input_tokens: "9" },
          },
        },
      ],
      anthropic(false)(),
    );
    expect(whole.result?.messages[0]!.tool_calls).toEqual([{ tool_name: "f", input_args: { a: 1 }, id: "t" }]);
    expect(Number.isSafeInteger(whole.result!.tokens_in)).toBe(true);
  });

  it("Bedrock: frames with wrong payloads name the field; an object input is used as it is", async () => {
    const ok = [{ name: "messageStop", data: { stopReason: "end_turn" } }];
    const cases: Array<[Entry[], string]> = [
      [
        [{ name: "contentBlockDelta", data: null }, ...ok],
        "bedrock: the contentBlockDelta event is null, expected an object",
      ],
      [
        [{ name: "contentBlockDelta", data: { contentBlockIndex: 0, delta: { text: 1 } } }, ...ok],
        "bedrock: contentBlockDelta.delta.text is a number, expected a string",
      ],
      [
        [
          {
            name: "contentBlockStart",
            data: { contentBlockIndex: "0", start: { toolUse: { toolUseId: "t", name: "f" } } },
          },
          ...ok,
        ],
        "bedrock: contentBlockStart.contentBlockIndex is a string, expected a non-negative integer",
      ],
      [
        [{ name: "contentBlockStart", data: { contentBlockIndex: 0, start: { toolUse: { toolUseId: "t" } } } }, ...ok],
        "bedrock: contentBlockStart.start.toolUse.name is absent, expected a string",
      ],
    ];
    for (const [entries, message] of cases) {
      const { error } = await outcome("eventstream", entries, bedrock(true)());
      expect(headline(error), message).toBe(message);
    }
    const { result } = await outcome(
      "eventstream",
      [
        {
          name: "contentBlockStart",
          data: { contentBlockIndex: 0, start: { toolUse: { toolUseId: "t", name: "f" } } },
        },
        { name: "contentBlockDelta", data: { contentBlockIndex: 0, delta: { toolUse: { input: { city: "Oslo" } } } } },
        { name: "contentBlockStop", data: { contentBlockIndex: 0 } },
        { name: "messageStop", data: { stopReason: "tool_use" } },
        { name: "metadata", data: { usage: { inputTokens: -1, outputTokens: "3" } } },
      ],
      bedrock(true)(),
    );
    expect(result?.messages[0]!.tool_calls).toEqual([{ tool_name: "f", input_args: { city: "Oslo" }, id: "t" }]);
    expect(isCount(result!.tokens_in) && isCount(result!.tokens_out)).toBe(true);
  });
});
