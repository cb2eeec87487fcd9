import { describe, expect, it } from "vitest";
import { detectProvider, selectModel } from "../src/model.js";

describe("selectModel", () => {
  it("plays the offline walkthrough when nothing is configured", () => {
    const choice = selectModel({});
    expect(choice).toEqual({
      kind: "offline",
      reason: expect.stringMatching(/^No model provider configured \(set ANTHROPIC_API_KEY or OPENAI_API_KEY.*offline walkthrough\.$/),
    });
  });

  it("recognises API keys and GLOVE_PROVIDER", () => {
    expect(detectProvider({ OPENAI_API_KEY: "sk-test" })).toEqual({ provider: "openai" });
    expect(detectProvider({ ANTHROPIC_API_KEY: "k", OPENAI_API_KEY: "k" })).toEqual({ provider: "anthropic" });
    expect(detectProvider({ GLOVE_PROVIDER: "OpenAI", ANTHROPIC_API_KEY: "k" })).toEqual({ provider: "openai" });
    expect(detectProvider({ ANTHROPIC_API_KEY: "  " })).toEqual({});
    expect(detectProvider({ GLOVE_PROVIDER: "acme" }).problem).toMatch(/not one of anthropic, openai/);
  });

  it("does not pretend: a configured provider without an adapter still goes offline, saying why", () => {
    const choice = selectModel({ ANTHROPIC_API_KEY: "k" });
    expect(choice.kind).toBe("offline");
    if (choice.kind === "offline") expect(choice.reason).toMatch(/"anthropic" is configured, but .*no model adapters.*offline walkthrough/);
    const bad = selectModel({ GLOVE_PROVIDER: "acme" });
    expect(bad.kind === "offline" && bad.reason).toMatch(/acme.*offline walkthrough/);
  });
});
