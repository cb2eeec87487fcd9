// The first thing a newcomer runs: a Glove on the offline scripted model, one tool, one request.
import { Displaymanager, Glove } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { z } from "zod";

const glove = new Glove({
  model: new ScriptedModel([
    { toolCalls: [{ name: "get_weather", input: { city: "Lagos" } }] },
    { text: "Sunny in Lagos." },
  ]),
  displayManager: new Displaymanager(),
  systemPrompt: "You are a helpful assistant.",
  compaction_config: { compaction_instructions: "Summarize the conversation." },
})
  .fold({
    name: "get_weather",
    description: "Get the weather for a city.",
    inputSchema: z.object({ city: z.string() }),
    do: async (input) => ({ status: "success", data: `Sunny in ${input.city}` }),
  })
  .build();

const result = await glove.processRequest("Weather in Lagos?");
// The final text, and what the whole request cost: a tool call and the answer, two model calls.
if (result.text !== "Sunny in Lagos." || result.usage.model_calls !== 2) throw new Error("unexpected answer");
