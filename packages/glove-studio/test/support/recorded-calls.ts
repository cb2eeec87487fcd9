/**
 * A conversation whose turns ran with the request inspector on (decision 0055): a real Glove on
 * the storage's own store, its real OpenAI-compatible adapter talking to a provider on 127.0.0.1,
 * and glove-server's turn tracing observing its model calls as a live conversation does.
 */
import { z } from "zod";
import { Displaymanager, Glove } from "glove-core";
import { OpenAICompatAdapter } from "glove-core/models/openai-compat";
import type { ServerStorage } from "glove-server";
import { TurnTracing } from "../../../glove-server/src/conversations/turn-tracing.js";
import { startFakeOpenAI, type FakeOpenAI } from "../../../glove-server/test/support/fake-openai.js";

export const INSPECT_API_KEY = "sk-live-STUDIO-INSPECT-0123456789";

export interface RecordedConversation {
  id: string;
  /** t1: a 429, then a tool call, then the answer; t2: one answer. */
  turnIds: ["t1", "t2"];
  provider: FakeOpenAI;
}

export async function recordedConversation(storage: ServerStorage, id = "inspected"): Promise<RecordedConversation> {
  const provider = await startFakeOpenAI();
  const now = new Date().toISOString();
  await storage.catalog.create({
    id,
    owner: "alice",
    agent: "assistant",
    title: "Weather in Tokyo",
    createdAt: now,
    updatedAt: now,
    eventIdsReserved: 0,
    runningTurnId: null,
    lastClientMessageId: null,
    lastTurnId: null,
  });
  const glove = new Glove({
    store: await storage.store(id),
    model: new OpenAICompatAdapter({
      model: "gpt-4o-mini",
      baseURL: `${provider.url}/v1`,
      apiKey: INSPECT_API_KEY,
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
    storage.inspect!.traces,
    id,
    () => "gpt-4o-mini",
    () => undefined,
  );
  let turn: string | undefined;
  glove.addSubscriber({ record: (...event) => tracing.observe(turn, ...event) });
  tracing.attach(glove, () => turn);
  provider.answers.push(
    { status: 429, message: "slow down", retryAfterMs: 40 },
    { tool: "get_weather", args: { city: "Tokyo" }, id: "call_w" },
    { text: "Sunny in Tokyo." },
    { text: "You are welcome." },
  );
  for (const [turnId, text] of [
    ["t1", "Weather in Tokyo?"],
    ["t2", "Thanks!"],
  ] as const) {
    turn = turnId;
    await glove.processRequest(text);
    await tracing.end(turnId, "done");
  }
  await storage.catalog.update(id, { lastTurnId: "t2", updatedAt: new Date().toISOString() });
  return { id, turnIds: ["t1", "t2"], provider };
}
