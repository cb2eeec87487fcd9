import { z } from "zod";
import { Glove, type PromptRequest } from "glove-core";
import { ScriptedModel, type ScriptedTurn } from "glove-core/testing";
import type { AgentFactory } from "glove-server";
import { defineDataset, type Dataset } from "glove-evals";

/**
 * The agent both sides run: a scripted model that calls `lookup` once, then answers with what it
 * returned (2 model calls, one zod-validated tool). It decides from the request alone, so one
 * factory serves any number of conversations at once.
 */
export const lookupAgent: AgentFactory = ({ store }) =>
  new Glove({
    store,
    systemPrompt: "You look things up.",
    model: new ScriptedModel([], { fallback: nextTurn, record: false }),
    builtIns: { tasks: false },
  }).fold({
    name: "lookup",
    description: "Looks a key up.",
    inputSchema: z.object({ key: z.string() }),
    do: async ({ key }) => ({ status: "success", data: `value-of-${key}` }),
  });

function nextTurn(request: PromptRequest): ScriptedTurn {
  const last = request.messages.at(-1)!;
  const result = last.tool_results?.[0];
  if (!result) return { toolCalls: [{ name: "lookup", input: { key: last.text.replace(/^look up /, "") } }] };
  return { text: `The answer is ${String(result.result.data)}.` };
}

/** What the agent must answer to item `n`: both sides check every run against it. */
export const expectedAnswer = (n: number) => `The answer is value-of-k${n}.`;

/** `items` items, each a question with its expected answer and trajectory. */
export function lookupDataset(items: number): Dataset {
  return defineDataset(
    "bench-lookup",
    Array.from({ length: items }, (_, n) => ({
      id: `item-${n}`,
      input: `look up k${n}`,
      expected: { output: expectedAnswer(n), toolCalls: [{ name: "lookup", args: { key: `k${n}` } }] },
    })),
  );
}
