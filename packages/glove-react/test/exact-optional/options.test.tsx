import { describe, expect, expectTypeOf, it } from "vitest";
import { createAdapter, Glove, type GloveConfig } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import {
  backoffDelay,
  GloveClient,
  GloveStore,
  ServerSession,
  type BackoffOptions,
  type GloveClientConfig,
  type LocalSessionOptions,
  type RenderProps,
  type UseGloveConfig,
} from "glove-react";

// An app compiled with exactOptionalPropertyTypes passes values that may be undefined (from the
// URL, the environment, props) straight to options; undefined means "not given", as if left out.
const maybe = (value?: string): string | undefined => value;
const maybeNumber = (value?: number): number | undefined => value;

describe("options that take a possibly-undefined value", () => {
  it("compile for useGlove, GloveClient, Render and the sessions", () => {
    const conversationId = maybe();
    const config: UseGloveConfig = {
      server: maybe("/api/glove"),
      agent: maybe(),
      conversationId,
      sessionId: maybe(),
      systemPrompt: maybe(),
      endpoint: maybe(),
      offlineAfter: maybeNumber(),
      credentials: undefined,
      tools: undefined,
      gloveConfig: { maxRetries: maybeNumber(), name: maybe() },
    };
    const clientConfig: GloveClientConfig = { ...config, createModel: undefined };
    const render: Pick<RenderProps, "strategy" | "className" | "renderInput"> = {
      strategy: undefined,
      className: maybe(),
      renderInput: undefined,
    };
    const local: Pick<LocalSessionOptions, "sessionId" | "persistSession"> = {
      sessionId: maybe(),
      persistSession: { prefix: maybe(), storage: undefined },
    };
    const backoff: BackoffOptions = { initialMs: maybeNumber(), jitter: maybeNumber(), random: undefined };
    expectTypeOf(config.conversationId).toEqualTypeOf<string | undefined>();
    expect([clientConfig, render, local, backoff]).toHaveLength(4);
  });

  it("compile for glove-core's Glove, createAdapter and processRequest", async () => {
    const config: GloveConfig = {
      model: new ScriptedModel([{ text: "Hi." }]),
      systemPrompt: "Greet.",
      store: undefined,
      displayManager: undefined,
      maxRetries: maybeNumber(),
      name: maybe(),
      compaction_config: { compaction_instructions: maybe(), max_turns: maybeNumber() },
    };
    const glove = new Glove(config)
      .fold({ name: "noop", description: "Nothing.", inputSchema: undefined, do: async () => "ok" })
      .build();
    const result = await glove.processRequest("hello", { signal: undefined, outputName: maybe() });
    expect(result.text).toBe("Hi.");
    expect(() =>
      createAdapter({ provider: "ollama", model: maybe("llama3"), apiKey: maybe(), baseURL: maybe() }),
    ).not.toThrow();
  });

  it("treat undefined as left out at run time", () => {
    expect(backoffDelay(3, { initialMs: undefined, maxMs: undefined, factor: undefined, jitter: 0 })).toBe(
      backoffDelay(3, { jitter: 0 }),
    );
    const session = new ServerSession(
      { server: "/api/glove", conversationId: maybe(), agent: maybe(), fetch: undefined, headers: undefined },
      new GloveStore(undefined, { scheduler: undefined }),
    );
    expect(session.conversationId).toBeNull();
    const client = new GloveClient({ conversationId: maybe(), server: maybe("/api/glove") });
    expect(client.config.server).toBe("/api/glove");
  });
});
