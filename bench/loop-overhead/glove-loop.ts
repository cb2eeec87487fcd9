import { Displaymanager, Glove, MemoryStore } from "glove-core";
import type { Message, PromptRequest, SubscriberAdapter } from "glove-core";
import { ScriptedModel, type ScriptedTurn } from "glove-core/testing";
import {
  SEARCH_INPUT,
  SYSTEM_PROMPT,
  TEXT_TURN_TEXT,
  TOKENS_IN,
  TOKENS_OUT,
  TOOL_TURN_TEXT,
  USER_REQUEST,
  priceSchema,
  runPrice,
  runSearch,
  searchSchema,
} from "./fixtures.js";

/** One conversation driven by a loop; `request()` is one tool turn plus one text turn. */
export interface LoopSession {
  request(): Promise<void>;
  /** The whole conversation, for checks (not used while timing). */
  messages(): Promise<Message[]>;
  /** Events delivered to the subscriber so far. */
  readonly events: number;
}

const TOOL_TURN: ScriptedTurn = {
  text: TOOL_TURN_TEXT,
  toolCalls: [{ name: "search", input: SEARCH_INPUT }],
  tokens_in: TOKENS_IN,
  tokens_out: TOKENS_OUT,
};
const TEXT_TURN: ScriptedTurn = { text: TEXT_TURN_TEXT, tokens_in: TOKENS_IN, tokens_out: TOKENS_OUT };

/** Answers a tool result with text and anything else with a tool call; looks at the last message only. */
function nextTurn(request: PromptRequest): ScriptedTurn {
  const last = request.messages[request.messages.length - 1];
  return last?.tool_results?.length ? TEXT_TURN : TOOL_TURN;
}

/** A Glove over a MemoryStore pre-populated with `history`, two zod tools and one subscriber. */
export async function createGloveSession(history: Message[]): Promise<LoopSession> {
  const store = new MemoryStore(`bench-${Math.random().toString(36).slice(2)}`);
  await store.appendMessages(history);
  // record: false — a benchmark session must not keep a copy of every request.
  const model = new ScriptedModel([], { fallback: nextTurn, record: false });
  let events = 0;
  const subscriber: SubscriberAdapter = {
    record: async () => {
      events++;
    },
  };
  const glove = new Glove({
    store,
    model,
    displayManager: new Displaymanager(),
    systemPrompt: SYSTEM_PROMPT,
    // High limits: no compaction during the benchmark.
    compaction_config: { compaction_instructions: "Summarise.", compaction_context_limit: Number.MAX_SAFE_INTEGER },
  })
    .fold({
      name: "search",
      description: "Search the catalogue.",
      inputSchema: searchSchema,
      do: async (input) => runSearch(input),
    })
    .fold({
      name: "price",
      description: "Price of a book by ISBN.",
      inputSchema: priceSchema,
      do: async (input) => runPrice(input),
    })
    .addSubscriber(subscriber)
    .build();

  return {
    async request() {
      await glove.processRequest(USER_REQUEST);
    },
    messages: () => store.getMessages(),
    get events() {
      return events;
    },
  };
}
