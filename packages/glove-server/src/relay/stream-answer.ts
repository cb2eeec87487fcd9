import type { ModelAdapter, PromptRequest } from "glove-core";
import { SSE_HEADERS, SseChannel } from "./sse-channel.js";
import { wireError } from "./upstream-error.js";
import type { Redactor } from "./redact.js";

export interface StreamAnswerArgs {
  adapter: ModelAdapter;
  prompt: PromptRequest;
  /** The client's request signal: aborts when the client goes away. */
  signal: AbortSignal;
  keepAliveMs: number;
  /** The relay's redacting log. */
  log: (message: string, error: unknown) => void;
  redact: Redactor;
  /** Called once the answer is over, however it ended. */
  done: () => void;
}

/**
 * Runs the upstream prompt and answers at once with its event stream: every
 * event the adapter emits, then `result` or `error`. The upstream request is
 * aborted as soon as the client goes away (request signal or body cancelled).
 */
export function streamAnswer({ adapter, prompt, signal, keepAliveMs, log, redact, done }: StreamAnswerArgs): Response {
  const cancelled = new AbortController();
  const upstreamSignal = AbortSignal.any([signal, cancelled.signal]);
  const channel = new SseChannel({ keepAliveMs, onCancel: () => cancelled.abort() });
  void (async () => {
    try {
      const result = await adapter.prompt(prompt, (type, data) => channel.send(type, data), upstreamSignal);
      await channel.send("result", result);
    } catch (error) {
      // Nobody is listening after an abort; anything else is the client's to know, in the relay's words.
      if (!upstreamSignal.aborted) await channel.send("error", wireError(error, { log, redact }));
    } finally {
      channel.close();
      done();
    }
  })().catch(() => {
    // Only a throwing `log` gets here: it must not become an unhandled rejection that ends the process.
  });
  return new Response(channel.stream, { status: 200, headers: SSE_HEADERS });
}
