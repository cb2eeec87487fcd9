import type { EvalItemInput, ItemRun } from "../../src/index.js";
import { defineDataset } from "../../src/index.js";

/** A run as the harness would record it, with only what a test sets. */
export function makeRun(overrides: Omit<Partial<ItemRun>, "item"> & { item?: EvalItemInput } = {}): ItemRun {
  const item = defineDataset("t", [overrides.item ?? { id: "i", input: "hi" }]).items[0]!;
  return {
    repetition: 0,
    conversationId: "c1",
    status: "done",
    output: "",
    toolCalls: [],
    questions: [],
    timeline: [],
    messages: [],
    usage: { tokensIn: 0, tokensOut: 0, modelCalls: 0 },
    models: [],
    latencyMs: 0,
    retries: 0,
    ...overrides,
    item,
  };
}
