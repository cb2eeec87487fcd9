import { z } from "zod";
import { Glove, SUBAGENT_DISPATCH_TOOL_NAME, type StoreAdapter, type SubAgentFactory } from "glove-core";
import type { ScriptedModel, ScriptedStep } from "glove-core/testing";

/** A model step that hands the turn to subagent `name` (call id `id`). */
export const invoke = (name: string, id: string): ScriptedStep => ({
  toolCalls: [{ name: SUBAGENT_DISPATCH_TOOL_NAME, input: { name, prompt: `Over to the ${name}.` }, id }],
});

/** The three agents' models: kept across Gloves, so a Glove opened again goes on where the last one stopped. */
export interface ChainModels {
  main: ScriptedModel;
  planner: ScriptedModel;
  researcher: ScriptedModel;
}

/** main → planner → researcher → `pick_day`, which asks which day (a stored question) and then records the answer in `done` (once). */
export function subagentChain(store: StoreAdapter, models: ChainModels, done: string[]): Glove {
  const child =
    (name: string, model: ScriptedModel, build: (glove: Glove) => Glove): SubAgentFactory =>
    async ({ parentStore, displayManager }) =>
      build(new Glove({ model, displayManager, systemPrompt: name })).build(
        await parentStore.createSubAgentStore!(name, { durable: true }),
      );
  const researcher = child("researcher", models.researcher, (g) =>
    g.fold({
      name: "pick_day",
      description: "Asks which day.",
      inputSchema: z.object({ topic: z.string() }),
      resolveSchema: z.object({ day: z.string() }),
      async do(input, display) {
        const answer = await display.pushAndWait<unknown, { day: string }>({
          input: { question: `Which day for ${input.topic}?` },
        });
        done.push(answer.day);
        return `on ${answer.day}`;
      },
    }),
  );
  const planner = child("planner", models.planner, (g) =>
    g.defineSubAgent({ name: "researcher", factory: researcher }),
  );
  return new Glove({ store, model: models.main, systemPrompt: "main" }).defineSubAgent({
    name: "planner",
    factory: planner,
  });
}
