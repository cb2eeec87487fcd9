import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { detectProvider, selectModel } from "../src/model.js";

describe("selectModel", () => {
  it("plays the offline walkthrough when nothing is configured, saying how to configure a provider", () => {
    const choice = selectModel({});
    expect(choice).toEqual({
      kind: "offline",
      reason: expect.stringMatching(
        /^No model provider configured \(set ANTHROPIC_API_KEY or OPENAI_API_KEY, or GLOVE_PROVIDER=ollama GLOVE_MODEL=llama3.*offline walkthrough\.$/,
      ),
    });
    expect(choice.kind === "offline" && choice.reason).not.toContain("\n");
  });

  it("recognises API keys and GLOVE_PROVIDER", () => {
    expect(detectProvider({ OPENAI_API_KEY: "sk-test" })).toEqual({ provider: "openai" });
    expect(detectProvider({ ANTHROPIC_API_KEY: "k", OPENAI_API_KEY: "k" })).toEqual({ provider: "anthropic" });
    expect(detectProvider({ GLOVE_PROVIDER: "OpenAI", ANTHROPIC_API_KEY: "k" })).toEqual({ provider: "openai" });
    expect(detectProvider({ MOONSHOT_API_KEY: "k" })).toEqual({ provider: "kimi" });
    expect(detectProvider({ GLOVE_PROVIDER: "ollama" })).toEqual({ provider: "ollama" });
    expect(detectProvider({ ANTHROPIC_API_KEY: "  " })).toEqual({});
    expect(detectProvider({ GLOVE_PROVIDER: "acme" }).problem).toMatch(
      /not one of openai, anthropic, .*ollama, lmstudio, bedrock/,
    );
  });

  it("builds a live adapter for a configured provider, with GLOVE_MODEL overriding the default", () => {
    const anthropic = selectModel({ ANTHROPIC_API_KEY: "k" });
    expect(anthropic.kind).toBe("live");
    if (anthropic.kind === "live") expect(anthropic.model.name).toBe("anthropic:claude-sonnet-4-20250514");
    const gemini = selectModel({ GEMINI_API_KEY: "k", GLOVE_MODEL: "gemini-2.5-pro" });
    expect(gemini.kind === "live" && gemini.model.name).toBe("gemini:gemini-2.5-pro");
  });

  it("goes offline with the adapter's reason when the configuration is incomplete", () => {
    const local = selectModel({ GLOVE_PROVIDER: "ollama" });
    expect(local.kind === "offline" && local.reason).toMatch(/"ollama" has no default model.*offline walkthrough\.$/);
    const noKey = selectModel({ GLOVE_PROVIDER: "openai" });
    expect(noKey.kind === "offline" && noKey.reason).toMatch(/set OPENAI_API_KEY.*offline walkthrough\.$/);
    const bad = selectModel({ GLOVE_PROVIDER: "acme" });
    expect(bad.kind === "offline" && bad.reason).toMatch(/acme.*offline walkthrough/);
  });

  it("GLOVE_PROVIDER=ollama with GLOVE_MODEL and GLOVE_BASE_URL talks to that server", async () => {
    const bodies: Array<{ model: string; messages: unknown[] }> = [];
    const server = createServer((req, res) => {
      let raw = "";
      req.on("data", (c: Buffer) => (raw += c.toString()));
      req.on("end", () => {
        bodies.push(JSON.parse(raw) as { model: string; messages: unknown[] });
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(
          `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "hello from llama" }, finish_reason: "stop" }] })}\n\ndata: [DONE]\n\n`,
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const choice = selectModel({ GLOVE_PROVIDER: "ollama", GLOVE_MODEL: "llama3", GLOVE_BASE_URL: url });
      expect(choice.kind).toBe("live");
      if (choice.kind !== "live") return;
      expect(choice.model.name).toBe("ollama:llama3");
      const result = await choice.model.prompt(
        { messages: [{ sender: "user", text: "hi" }], systemPrompt: "sys" },
        async () => {},
      );
      expect(result.messages[0]!.text).toBe("hello from llama");
      expect(bodies[0]!.model).toBe("llama3");
    } finally {
      server.close();
    }
  });
});
