import { Displaymanager, Glove, MemoryStore, type Message, type SubscriberAdapter } from "glove-core";
import { OpenAICompatAdapter } from "glove-core/models/openai-compat";
import { MODEL } from "./fake-openai.js";
import { LOOKUP_DESCRIPTION, SYSTEM_PROMPT, USER_REQUEST, lookupSchema, runLookup } from "./fixtures.js";

export interface E2ESession {
  /** One user request: 3 tool turns and a final text turn (4 model calls). */
  request(text?: string): Promise<void>;
  messages(): Promise<unknown[]>;
  readonly events: number;
}

/**
 * The Glove loop driving the OpenAI-compatible adapter against the fake server, on the default
 * transport (node:http in Node) or, with `viaFetch`, on the platform's fetch (what a user gets by
 * passing `fetch`, and what every call took before decision 0035).
 */
export function createGloveSession(baseURL: string, viaFetch = false): E2ESession {
  const store = new MemoryStore(`bench-${Math.random().toString(36).slice(2)}`);
  const model = new OpenAICompatAdapter({
    provider: "openai",
    model: MODEL,
    baseURL,
    apiKey: "sk-bench",
    maxRetries: 0,
    ...(viaFetch
      ? { fetch: (input: string | URL | Request, init?: RequestInit) => globalThis.fetch(input, init) }
      : {}),
  });
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
    compaction_config: {
      compaction_instructions: "Summarise.",
      compaction_context_limit: Number.MAX_SAFE_INTEGER,
      max_turns: 1_000_000,
    },
  })
    .fold({
      name: "lookup",
      description: LOOKUP_DESCRIPTION,
      inputSchema: lookupSchema,
      do: async (input) => runLookup(input),
    })
    .addSubscriber(subscriber)
    .build();
  return {
    async request() {
      await glove.processRequest(USER_REQUEST);
    },
    messages: async (): Promise<Message[]> => store.getMessages(),
    get events() {
      return events;
    },
  };
}
