import { withPrices } from "glove-core/prices";
import { describe, expect, it } from "vitest";
import { callCost, turnCost, usd } from "../ui/src/views/span-facts.js";
import type { TurnTrace } from "../ui/src/api.js";

type Span = TurnTrace["spans"][number];
const span = (kind: Span["kind"], attributes: Span["attributes"]): Span => ({
  spanId: Math.random().toString(36).slice(2),
  parentSpanId: null,
  name: kind,
  kind,
  startMs: 0,
  durationMs: 10,
  status: "ok",
  attributes,
});

// The waterfall's cost column: glove-core's price table (the one glove-evals uses) times the tokens a
// model call recorded.
describe("the waterfall's costs", () => {
  const sonnet = span("model_call", {
    "gen_ai.request.model": "anthropic:claude-sonnet-4-5-20250929",
    "gen_ai.usage.input_tokens": 1_000_000,
    "gen_ai.usage.output_tokens": 100_000,
  });
  const subagent = span("model_call", { "glove.agent_path": "forecaster", "gen_ai.usage.input_tokens": 500 });
  const tool = span("tool_call", { "gen_ai.tool.name": "book" });

  it("prices a model call by its model and tokens, and nothing else", () => {
    expect(callCost(sonnet)).toBeCloseTo(3 + 1.5, 9);
    expect(callCost(subagent)).toBeUndefined(); // no model recorded
    expect(callCost(tool)).toBeUndefined();
    expect(callCost(span("model_call", { "gen_ai.request.model": "gpt-4o" }))).toBeUndefined(); // no tokens
  });

  it("adds a turn's calls up and counts the ones without a price; an app's table extends the default", () => {
    expect(turnCost([sonnet, subagent, tool])).toEqual({ usd: 4.5, unpriced: 1 });
    const own = withPrices({ "my-model": { inputPerMillion: 10, outputPerMillion: 0 } });
    const mine = span("model_call", { "gen_ai.request.model": "my-model", "gen_ai.usage.input_tokens": 1000 });
    expect(turnCost([mine], own).usd).toBeCloseTo(0.01, 9);
    expect(turnCost([mine]).unpriced).toBe(1);
  });

  it("shows four decimals under a dollar, two above", () => {
    expect([usd(0.00123), usd(4.5), usd(0)]).toEqual(["$0.0012", "$4.50", "$0.0000"]);
  });
});
