/** glove-server as a peer: the OpenAI-compatible adapter against the fake model, the `lookup` tool, memory or SQLite storage. */
import { Displaymanager, Glove } from "glove-core";
import { OpenAICompatAdapter } from "glove-core/models/openai-compat";
import { MODEL } from "../../adapter-e2e/fake-openai.js";
import { LOOKUP_DESCRIPTION, SYSTEM_PROMPT, lookupSchema, runLookup } from "../../adapter-e2e/fixtures.js";
import { startGloveTarget, type RunningGlove } from "../glove-target.js";
import type { PeerOptions } from "./peer-options.js";

export function startGlovePeer(options: PeerOptions): Promise<RunningGlove> {
  return startGloveTarget({
    storage: options.storage ?? "memory",
    agents: {
      chat: ({ store }) =>
        new Glove({
          store,
          model: new OpenAICompatAdapter({
            provider: "openai",
            model: MODEL,
            baseURL: options.modelURL,
            apiKey: "sk-bench",
            maxRetries: 0,
          }),
          displayManager: new Displaymanager(),
          systemPrompt: SYSTEM_PROMPT,
          compaction_config: {
            compaction_instructions: "Summarise.",
            compaction_context_limit: Number.MAX_SAFE_INTEGER,
            max_turns: 1_000_000,
          },
        }).fold({
          name: "lookup",
          description: LOOKUP_DESCRIPTION,
          inputSchema: lookupSchema,
          do: async (input) => runLookup(input),
        }),
    },
  });
}
