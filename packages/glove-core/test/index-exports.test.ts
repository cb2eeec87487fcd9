import { describe, expect, it } from "vitest";
import { ConfigurationError, createAdapter, getAvailableProviders, ProviderError } from "glove-core";

describe("main entry", () => {
  it("exports createAdapter as in the spec's first example, failing clearly without a key", () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      let error: unknown;
      try {
        createAdapter({ provider: "anthropic" });
      } catch (e) {
        error = e;
      }
      expect(ConfigurationError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain("ANTHROPIC_API_KEY");
      expect(createAdapter({ provider: "anthropic", apiKey: "test-key" }).name).toContain("anthropic");
    } finally {
      if (saved !== undefined) process.env.ANTHROPIC_API_KEY = saved;
    }
    expect(getAvailableProviders().map((p) => p.id)).toHaveLength(11);
    expect(typeof ProviderError.isInstance).toBe("function");
  });
});
