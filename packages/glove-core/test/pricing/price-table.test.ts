import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { costOf, DEFAULT_PRICES, priceOf, withPrices } from "glove-core/prices";

describe("glove-core/prices", () => {
  it("finds a model by adapter name, bare id, or the longest key a dated id starts with", () => {
    expect(priceOf("anthropic:claude-sonnet-4-5-20250929")).toEqual({ inputPerMillion: 3, outputPerMillion: 15 });
    expect(priceOf("gpt-4o-mini")).toEqual(DEFAULT_PRICES["gpt-4o-mini"]);
    // "gpt-4o-mini-2024" must not match the shorter "gpt-4o".
    expect(priceOf("openai:gpt-4o-mini-2024-07-18")).toEqual(DEFAULT_PRICES["gpt-4o-mini"]);
    expect(priceOf("nobody-knows-this-model")).toBeUndefined();
  });

  it("adds prices over the defaults without changing them", () => {
    const table = withPrices({ "my-model": { inputPerMillion: 1, outputPerMillion: 2 } });
    expect(priceOf("my-model", table)).toEqual({ inputPerMillion: 1, outputPerMillion: 2 });
    expect(priceOf("my-model")).toBeUndefined();
    expect(Object.isFrozen(table)).toBe(true);
  });

  it("costs add up per token and name what the table does not price", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            model: fc.constantFrom("gpt-4o", "claude-haiku-4-5", "mystery"),
            tokensIn: fc.nat(1_000_000),
            tokensOut: fc.nat(1_000_000),
            calls: fc.nat(10),
          }),
          { maxLength: 8 },
        ),
        (usage) => {
          const { usd, unpriced } = costOf(usage);
          let expected = 0;
          for (const u of usage) {
            const price = priceOf(u.model);
            if (price) expected += (u.tokensIn * price.inputPerMillion + u.tokensOut * price.outputPerMillion) / 1e6;
          }
          expect(usd).toBeCloseTo(expected, 9);
          expect(unpriced).toEqual(
            usage.some((u) => u.model === "mystery" && (u.tokensIn || u.tokensOut)) ? ["mystery"] : [],
          );
        },
      ),
    );
  });
});
