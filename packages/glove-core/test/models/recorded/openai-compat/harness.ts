/** Runs the OpenAI-compatible adapter against a recorded fixture (see ../README.md). */
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { Message, ModelPromptResult, PromptRequest, SubscriberEvent, Tool } from "glove-core";
import { OpenAICompatAdapter, type OpenAICompatAdapterOptions } from "glove-core/models/openai-compat";
import { RecordingSubscriber } from "glove-core/testing";
import { z } from "zod";
import { loadFixture, replayFetch, whole, type Chunking, type Fixture, type ReplayScript } from "../support/index.js";

export const FIXTURES = dirname(fileURLToPath(import.meta.url));

export function fixture(name: string): Fixture {
  return loadFixture(FIXTURES, name);
}

/** A recorded stream is an `.sse` fixture; everything else is a whole JSON body. */
export function isStreamed(f: Fixture): boolean {
  return f.response.headers["content-type"] === "text/event-stream";
}

/** An adapter whose fetch replays `steps`, streaming or not as the first fixture was recorded. */
export function replayAdapter(
  steps: Array<{ fixture: Fixture; chunking?: Chunking }>,
  options: Partial<OpenAICompatAdapterOptions> = {},
): { adapter: OpenAICompatAdapter; script: ReplayScript } {
  const { fetch, script } = replayFetch(
    steps.map((s) => ({ response: s.fixture.response, chunking: s.chunking ?? whole })),
  );
  const adapter = new OpenAICompatAdapter({
    model: "recorded-model",
    baseURL: "http://replay.invalid/v1",
    apiKey: "sk-replay",
    stream: isStreamed(steps[0]!.fixture),
    maxRetries: 0,
    fetch,
    ...options,
  });
  return { adapter, script };
}

/** What one prompt produced: the result and every event, in order. */
export interface Run {
  result: ModelPromptResult;
  message: Message;
  events: SubscriberEvent[];
  script: ReplayScript;
}

export async function runFixture(
  name: string,
  chunking: Chunking = whole,
  options: Partial<OpenAICompatAdapterOptions> = {},
  request: Partial<PromptRequest> = {},
): Promise<Run> {
  const { adapter, script } = replayAdapter([{ fixture: fixture(name), chunking }], options);
  const rec = new RecordingSubscriber();
  const result = await adapter.prompt(
    { messages: [{ sender: "user", text: "Recorded question." }], tools: [weatherTool], ...request },
    (type, data) => rec.record(type, data),
  );
  return { result, message: result.messages[0]!, events: rec.events, script };
}

export const weatherTool: Tool<unknown> = {
  name: "weather",
  description: "Weather for a location.",
  input_schema: z.object({ location: z.string().optional(), city: z.string().optional() }) as z.ZodType<unknown>,
  run: async () => "sunny",
};
