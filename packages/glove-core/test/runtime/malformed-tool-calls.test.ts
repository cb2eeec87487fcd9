import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ProviderError,
  type Message,
  type ModelAdapter,
  type ModelPromptResult,
  type NotifySubscribersFunction,
} from "glove-core";
import { AnthropicAdapter } from "glove-core/models/anthropic";
import { BedrockAdapter } from "glove-core/models/bedrock";
import { OpenAICompatAdapter } from "glove-core/models/openai-compat";
import { json, named, sse, startFakeServer, type FakeServer, type Handler } from "../models/fake-server.js";
import { makeGlove } from "../support/make-glove.js";
import { expectStoreHistoryValid } from "../support/valid-history.js";

// A model answer whose tool calls the runtime cannot use is a ProviderError (providerCode
// "malformed_tool_call" from the runtime's checks, "malformed_response" from an adapter's), never
// a TypeError, and nothing of that answer is stored: the conversation goes on from where it was.

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A Glove with an `echo` tool on `model`. */
function gloveOn(model: ModelAdapter) {
  const made = makeGlove([], { model });
  made.glove.fold({
    name: "echo",
    description: "Echoes its text.",
    inputSchema: z.object({ text: z.string() }),
    do: async ({ text }) => text,
  });
  return made;
}

/** A custom adapter: the first prompt answers `first` (after `before` notifies), later ones "done". */
function adapter(first: () => unknown, before?: (notify: NotifySubscribersFunction) => Promise<void>): ModelAdapter {
  let calls = 0;
  return {
    name: "custom",
    setSystemPrompt() {},
    async prompt(_request, notify): Promise<ModelPromptResult> {
      if (calls++ > 0) return { messages: [{ sender: "agent", text: "done" }], tokens_in: 1, tokens_out: 1 };
      await before?.(notify);
      return { messages: [{ sender: "agent", text: "", tool_calls: first() } as Message], tokens_in: 1, tokens_out: 1 };
    },
  };
}

async function failure(run: Promise<unknown>): Promise<ProviderError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(ProviderError.isInstance(error), String((error as Error | undefined)?.stack ?? error)).toBe(true);
  return error as ProviderError;
}

describe("malformed tool calls from a custom adapter", () => {
  const cases: Array<[string, () => unknown, RegExp]> = [
    [
      "a null entry",
      () => [null],
      /messages\[0\]\.tool_calls\[0\] is null, expected \{ tool_name, input_args, id\? \}/,
    ],
    ["a number entry", () => [{ tool_name: "echo", input_args: { text: "a" } }, 7], /tool_calls\[1\] is a number/],
    [
      "a name that is not a string",
      () => [{ tool_name: 5, input_args: {} }],
      /tool_calls\[0\]\.tool_name is a number, expected the name of a tool/,
    ],
    ["no name", () => [{ input_args: {} }], /tool_calls\[0\]\.tool_name is absent/],
    ["an empty name", () => [{ tool_name: "", input_args: {} }], /tool_calls\[0\]\.tool_name is empty/],
    ["tool_calls that are not an array", () => "echo", /tool_calls is a string, expected an array of tool calls/],
  ];
  for (const [label, calls, detail] of cases) {
    it(`${label}: a ProviderError saying what was wrong and what to do; nothing stored`, async () => {
      const { glove, store } = gloveOn(adapter(calls));
      const error = await failure(glove.processRequest("go"));
      expect(error).toMatchObject({
        provider: "custom",
        status: 0,
        retryable: false,
        providerCode: "malformed_tool_call",
      });
      expect(error.message).toMatch(detail);
      expect(error.message).toContain("Nothing of this answer was stored. Retry the request");
      expect((await store.getMessages()).map((m) => m.sender)).toEqual(["user"]);
      await expectStoreHistoryValid(store);
      // The conversation goes on.
      await glove.processRequest("again");
      expect((await store.getMessages()).at(-1)!.text).toBe("done");
    });
  }

  it("malformed calls in the adapter's events are caught the same way (tool_use and model_response_complete)", async () => {
    const events: Array<(notify: NotifySubscribersFunction) => Promise<void>> = [
      (notify) => notify("tool_use", null as never),
      (notify) => notify("tool_use", { id: "c1", name: 42, input: {} } as never),
      (notify) => notify("model_response_complete", { text: "", tool_calls: [null] } as never),
    ];
    for (const before of events) {
      const { glove, store } = gloveOn(adapter(() => [{ tool_name: "echo", input_args: { text: "a" } }], before));
      const error = await failure(glove.processRequest("go"));
      expect(error.providerCode).toBe("malformed_tool_call");
      expect((await store.getMessages()).map((m) => m.sender)).toEqual(["user"]);
    }
  });

  it("an empty or null call list is dropped; calls without ids get ids", async () => {
    for (const calls of [[], null]) {
      const { glove, store } = gloveOn(adapter(() => calls));
      await glove.processRequest("go");
      expect((await store.getMessages())[1]).toEqual({ sender: "agent", id: expect.any(String), text: "" });
    }
    const { glove, store } = gloveOn(adapter(() => [{ tool_name: "echo", input_args: { text: "a" }, id: 3 }]));
    await glove.processRequest("go");
    await expectStoreHistoryValid(store);
  });
});

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const textAnswer = sse([chunk({ content: "done" }), chunk({}, "stop")], { done: true });

describe("malformed tool calls from a provider over HTTP", () => {
  async function run(first: Handler, model: (url: string) => ModelAdapter, answer: Handler = textAnswer) {
    server = await startFakeServer(first, answer);
    const made = gloveOn(model(server.url));
    return { ...made, error: await failure(made.glove.processRequest("go")) };
  }
  const openai = (stream: boolean) => (url: string) =>
    new OpenAICompatAdapter({ model: "m", baseURL: `${url}/v1`, apiKey: "k", stream, maxRetries: 0 });

  it("OpenAI-compatible: null, nameless and empty-named entries, streamed or whole", async () => {
    const whole = (calls: unknown[]) =>
      json(200, {
        choices: [
          { index: 0, message: { role: "assistant", content: "", tool_calls: calls }, finish_reason: "tool_calls" },
        ],
      });
    const streamed = (calls: unknown[]) => sse([chunk({ tool_calls: calls }), chunk({}, "tool_calls")], { done: true });
    const cases: Array<[Handler, boolean, string]> = [
      [whole([null]), false, "response.choices[0].message.tool_calls[0] is null, expected an object"],
      [
        whole([{ id: "c", function: { name: "", arguments: "{}" } }]),
        false,
        "response.choices[0].message.tool_calls[0].function.name is empty",
      ],
      [streamed([null]), true, "chunk.choices[0].delta.tool_calls[0] is null, expected an object"],
      [streamed([{ index: 0, id: "c" }]), true, 'call "c" ended without a function name'],
      [streamed([{ index: 0, id: "c", function: null }]), true, 'call "c" ended without a function name'],
    ];
    for (const [first, stream, detail] of cases) {
      const { error, store } = await run(first, openai(stream));
      expect(error).toMatchObject({ provider: "openai", retryable: false, providerCode: "malformed_response" });
      expect(error.message).toContain(detail);
      expect(error.message).toContain("retry the request");
      expect((await store.getMessages()).map((m) => m.sender)).toEqual(["user"]);
      await expectStoreHistoryValid(store);
      await server!.close();
    }
  });

  it("Anthropic: a tool_use block with an empty name, streamed or whole", async () => {
    const anthropic = (stream: boolean) => (url: string) =>
      new AnthropicAdapter({ model: "m", baseURL: url, apiKey: "k", stream, maxRetries: 0 });
    const block = { type: "tool_use", id: "toolu_1", name: "", input: {} };
    const streamed = sse([
      named("message_start", { type: "message_start", message: { usage: { input_tokens: 1 } } }),
      named("content_block_start", { type: "content_block_start", index: 0, content_block: block }),
      named("content_block_stop", { type: "content_block_stop", index: 0 }),
      named("message_stop", { type: "message_stop" }),
    ]);
    for (const [first, stream] of [
      [streamed, true],
      [json(200, { content: [block], stop_reason: "tool_use", usage: {} }), false],
    ] as const) {
      const { error, store } = await run(first, anthropic(stream));
      expect(error).toMatchObject({ provider: "anthropic", providerCode: "malformed_response" });
      expect(error.message).toMatch(
        /content(_block_start\.content_block|\[0\])\.name is empty, expected the name of a tool/,
      );
      expect((await store.getMessages()).map((m) => m.sender)).toEqual(["user"]);
      await server!.close();
    }
  });

  it("Bedrock: a toolUse block with an empty name", async () => {
    const bedrock = (url: string) =>
      new BedrockAdapter({
        model: "m",
        region: "us-east-1",
        baseURL: url,
        credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "s" },
        stream: false,
        maxRetries: 0,
      });
    const body = {
      output: { message: { role: "assistant", content: [{ toolUse: { toolUseId: "t", name: "", input: {} } }] } },
      stopReason: "tool_use",
      usage: {},
    };
    const { error, store } = await run(json(200, body), bedrock);
    expect(error).toMatchObject({ provider: "bedrock", providerCode: "malformed_response" });
    expect(error.message).toContain("response.output.message.content[0].toolUse.name is empty");
    expect((await store.getMessages()).map((m) => m.sender)).toEqual(["user"]);
  });
});
