/** OpenAI-compatible answers for the fake provider: a streamed reply and the failures worth a retry. */
import { json, sse, type Handler } from "./fake-server.js";

/** A streamed chat completion saying `text`, finished with "stop". */
export function openAiAnswer(text = "ok"): Handler {
  const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
    id: "c",
    object: "chat.completion.chunk",
    created: 1,
    model: "m",
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  return sse([chunk({ content: text }, null), chunk({}, "stop")], { done: true });
}

/** 503 with OpenAI's error body: retried with backoff. */
export const openAiBusy: Handler = json(503, { error: { message: "Service unavailable", type: "server_error" } });

/** 429 asking to retry at once (retry-after: 0). */
export const openAiRateLimited: Handler = json(
  429,
  { error: { message: "Rate limit reached", type: "rate_limit_exceeded" } },
  { "retry-after": "0" },
);
