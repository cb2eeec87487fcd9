// What a newcomer's code leans on, compiled against the tarballs under strict + nodenext +
// exactOptionalPropertyTypes: the result's text and usage without narrowing, a subscriber whose
// data narrows on its type, and options fed values that may be undefined (env, URL, props).
import { createAdapter, Glove, type IGloveRunnable, type RequestUsage, type SubscriberAdapter } from "glove-core";
import { GloveClient, type UseGloveConfig } from "glove-react";
import { z } from "zod";

/** A value that may be missing, as `process.env.X` or a URL parameter is. */
const maybe = (value?: string): string | undefined => value;

export async function ask(agent: IGloveRunnable, question: string): Promise<{ text: string; usage: RequestUsage }> {
  const result = await agent.processRequest(question);
  const text: string = result.text; // on both kinds of result: a model's answer or a hook's
  return { text, usage: result.usage };
}

export function transcript(): { subscriber: SubscriberAdapter; lines: string[] } {
  const lines: string[] = [];
  const subscriber: SubscriberAdapter = {
    record(type, data) {
      if (type === "text_delta") lines.push(data.text);
      if (type === "tool_use") lines.push(`[${data.name}]`);
      if (type === "token_consumption") lines.push(`(${data.consumption.tokens_in} in)`);
    },
  };
  return { subscriber, lines };
}

export function agentFromEnv(): Glove {
  return new Glove({
    model: createAdapter({ provider: "anthropic", model: maybe(), apiKey: maybe(), baseURL: maybe() }),
    systemPrompt: "You are a helpful assistant.",
    name: maybe(),
    maxRetries: undefined,
    compaction_config: { max_turns: undefined },
  }).fold({
    name: "confirm",
    description: "Asks the user to confirm.",
    inputSchema: z.object({ question: z.string() }),
    // A fold's display takes { input: props }.
    do: async (input, display) => display.pushAndWait<{ question: string }, boolean>({ input, renderer: maybe() }),
  });
}

export function chatConfig(conversationId: string | undefined): UseGloveConfig {
  return { server: "/api/glove", conversationId, agent: maybe(), headers: undefined };
}

export const client = new GloveClient({
  server: maybe("/api/glove"),
  conversationId: maybe(),
  offlineAfter: undefined,
});
