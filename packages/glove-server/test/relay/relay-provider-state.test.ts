/**
 * What a provider needs to continue its own turns survives the relay both ways, on recorded
 * traffic: browser-side relay model → createModelRelay on 127.0.0.1 → a real provider adapter →
 * a local server replaying the provider's recorded answers. Signed thinking, message and call
 * extras, the producing provider, refusals and structured-output requests.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  Displaymanager,
  Glove,
  MemoryStore,
  StructuredOutputError,
  type Message,
  type SubscriberEvent,
} from "glove-core";
import { createRelayModel, type RelayModel } from "glove-core/models/relay";
import { RecordingSubscriber } from "glove-core/testing";
import type { CreateAdapterOptions } from "glove-core";
import { DIR as ANTHROPIC_DIR, recorded } from "../../../glove-core/test/models/recorded/anthropic/harness.js";
import {
  OPENROUTER_CLAUDE_DETAILS,
  RECORDED_GEMINI_SIGNATURE,
} from "../../../glove-core/test/models/recorded/openai-compat/expectations.js";
import { fixture } from "../../../glove-core/test/models/recorded/openai-compat/harness.js";
import {
  startReplayServer,
  type RecordedResponse,
  type ReplayServer,
} from "../../../glove-core/test/models/recorded/support/index.js";
import type { Listening } from "../../src/http/node-listen.js";
import { createModelRelay, type RelayAdapterOptions } from "../../src/relay/index.js";
import { testAuthenticate, TOKEN } from "./support/harness.js";

type Wire = Record<string, unknown>;

let upstream: ReplayServer | undefined;
let relay: Listening | undefined;
afterEach(async () => {
  await relay?.close();
  await upstream?.close();
  relay = upstream = undefined;
});

/** A relay for `provider` in front of a replay of `responses`, and a browser-side model using it. */
async function relayTo(
  provider: CreateAdapterOptions["provider"],
  model: string,
  responses: RecordedResponse[],
  adapterOptions: RelayAdapterOptions = {},
): Promise<RelayModel> {
  upstream = await startReplayServer(responses.map((response) => ({ response })));
  const baseURL = provider === "anthropic" ? upstream.url : `${upstream.url}/v1`;
  relay = await createModelRelay({
    authenticate: testAuthenticate,
    provider,
    apiKey: "test-key",
    baseURL,
    adapterOptions: { maxRetries: 0, ...adapterOptions },
    models: [model],
    keepAliveMs: 0,
  }).listen();
  return createRelayModel({ endpoint: relay.url, headers: { authorization: TOKEN } });
}

/** What the upstream provider received as request `index`. */
const sentUpstream = (index: number) => upstream!.script.body(index);
const assistantOf = (messages: Wire[]) => messages.find((m) => m["role"] === "assistant")!;
const noop = async () => {};
/** The message as a browser store gives it back. */
const stored = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe("Anthropic signed thinking through the relay", () => {
  it("a browser Glove's thinking + tool loop: the second upstream request opens the assistant turn with the signed block", async () => {
    const model = await relayTo(
      "anthropic",
      "claude-sonnet-4-20250514",
      [recorded("tool-loop-thinking.1"), recorded("tool-loop-thinking.2")],
      {
        stream: false,
        thinking: { budgetTokens: 3000 },
      },
    );
    const store = new MemoryStore("browser-tab");
    const events = new RecordingSubscriber();
    const glove = new Glove({
      store,
      model,
      displayManager: new Displaymanager(),
      systemPrompt: "Be helpful.",
      compaction_config: { compaction_instructions: "Summarize." },
    })
      .fold({
        name: "get_user_country",
        description: "The user's country.",
        inputSchema: z.object({}),
        async do() {
          return { status: "success" as const, data: "Mexico" };
        },
      })
      .addSubscriber(events)
      .build();

    const result = await glove.processRequest("What is the largest city in the user country?");
    expect("messages" in result && result.messages.at(-1)!.text).toContain("Ciudad de México");

    const expected = JSON.parse(
      readFileSync(join(ANTHROPIC_DIR, "tool-loop-thinking.expected-assistant-turn.json"), "utf8"),
    ) as {
      content: Array<{ signature?: string }>;
    };
    const sent = sentUpstream(1)["messages"] as Array<{ role: string; content: Wire[] }>;
    expect(sent[1]).toEqual(expected);
    expect(sent[2]!.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_01YGzqpRE16Vricda3Aqcejo" });

    // The browser's store holds the block as the provider signed it, and which provider answered.
    const saved = (await store.getMessages()).find((m) => m.reasoning_blocks?.length);
    expect(saved?.reasoning_blocks).toEqual([
      {
        type: "thinking",
        text: expect.stringContaining("get_user_country function first"),
        signature: expected.content[0]!.signature,
        provider: "anthropic",
      },
    ]);
    expect(saved?.provider).toBe("anthropic");
  });
});

describe("OpenAI-compatible extras through the relay", () => {
  /** Turn one through the relay, a store round trip, turn two: what the upstream got on turn two. */
  async function twoTurns(
    provider: "gemini" | "openrouter",
    first: string,
    second: string,
  ): Promise<{ turnOne: Message; messages: Wire[] }> {
    const model = await relayTo(provider, "recorded-model", [fixture(first).response, fixture(second).response], {
      reasoning: true,
    });
    const question: Message = { sender: "user", text: "Recorded question." };
    const turnOne = (await model.prompt({ messages: [question] }, noop)).messages[0]!;
    const next: Message = turnOne.tool_calls?.length
      ? {
          sender: "user",
          text: "",
          tool_results: turnOne.tool_calls.map((c) => ({
            tool_name: c.tool_name,
            call_id: c.id,
            result: { status: "success" as const, data: "ok" },
          })),
        }
      : { sender: "user", text: "And 3+3?" };
    await model.prompt({ messages: stored([question, turnOne, next]) }, noop);
    return { turnOne, messages: sentUpstream(1)["messages"] as Wire[] };
  }

  it("OpenRouter's message-level reasoning_details come back with the answer and go back upstream", async () => {
    const { turnOne, messages } = await twoTurns("openrouter", "openrouter-claude-reasoning", "openai-text");
    expect(turnOne.provider).toBe("openrouter");
    expect(turnOne.provider_extras).toEqual({ reasoning_details: OPENROUTER_CLAUDE_DETAILS });
    expect(assistantOf(messages)).toEqual({
      role: "assistant",
      content: "2 + 2 = 4",
      reasoning_details: OPENROUTER_CLAUDE_DETAILS,
    });
  });

  it("Gemini's thought signature on a call comes back with the call and goes back upstream on it", async () => {
    const { turnOne, messages } = await twoTurns("gemini", "gemini-recorded-signed-call", "gemini-answer");
    expect(turnOne.tool_calls?.[0]?.provider_extras).toEqual({
      extra_content: { google: { thought_signature: RECORDED_GEMINI_SIGNATURE } },
    });
    const calls = assistantOf(messages)["tool_calls"] as Wire[];
    expect(calls[0]!["extra_content"]).toEqual({ google: { thought_signature: RECORDED_GEMINI_SIGNATURE } });
  });
});

describe("refusals and structured output through the relay", () => {
  it("a structured request reaches the upstream as its JSON-schema mode; the refusal comes back as an event and a marked message", async () => {
    const model = await relayTo("openai", "gpt-4o-2024-08-06", [fixture("openai-refusal").response]);
    const output = {
      name: "calendar_event",
      description: "An event.",
      schema: {
        type: "object",
        properties: { name: { type: "string" } },
        required: ["name"],
        additionalProperties: false,
      },
    };
    const events: SubscriberEvent[] = [];
    const result = await model.prompt(
      { messages: [{ sender: "user", text: "Something the model refuses." }], output },
      async (type, data) => {
        events.push({ type, ...data } as SubscriberEvent);
      },
    );
    expect(sentUpstream(0)["response_format"]).toEqual({
      type: "json_schema",
      json_schema: { ...output, strict: true },
    });
    expect(events.filter((e) => e.type === "model_refusal")).toEqual([
      { type: "model_refusal", text: "I'm sorry, I cannot assist with that request." },
    ]);
    expect(result.messages).toEqual([
      { sender: "agent", text: "I'm sorry, I cannot assist with that request.", is_refusal: true, provider: "openai" },
    ]);
  });

  it("a browser Glove's processRequest with output: the schema goes upstream natively and in the prompt; a refusal is a typed refusal", async () => {
    const model = await relayTo("openai", "gpt-4o-2024-08-06", [fixture("openai-refusal").response]);
    expect(model.supportsStructuredOutput).toBe(false);
    const glove = new Glove({
      store: new MemoryStore("tab"),
      model,
      displayManager: new Displaymanager(),
      systemPrompt: "Extract events.",
      compaction_config: { compaction_instructions: "Summarize." },
    }).build();
    const error = await glove
      .processRequest("Something the model refuses.", {
        output: z.object({ name: z.string() }),
        outputName: "calendar_event",
      })
      .catch((e: unknown) => e);
    expect(StructuredOutputError.isInstance(error) && error.reason).toBe("refusal");
    const body = sentUpstream(0);
    expect((body["response_format"] as { json_schema: Wire }).json_schema["name"]).toBe("calendar_event");
    const system = (body["messages"] as Wire[])[0]!;
    expect(system["role"]).toBe("system");
    expect(String(system["content"])).toContain('JSON Schema named "calendar_event"');
  });
});
