import type { HttpResponse } from "./http/types.js";
import { SSEParser, type SSEEvent } from "../../sse/sse-parser.js";

export { SSEParser, type SSEEvent };

/**
 * Reads a response body as SSE, yielding the events of each network chunk as
 * one batch (fewer async steps than one yield per event). The body is released
 * (cancelled) when the consumer stops early or throws.
 */
export async function* readSSEBatches(response: HttpResponse): AsyncGenerator<SSEEvent[]> {
  let batch: SSEEvent[] = [];
  const parser = new SSEParser((event) => batch.push(event));
  for await (const text of response.textChunks()) {
    parser.feed(text);
    if (batch.length) {
      const out = batch;
      batch = [];
      yield out;
    }
  }
  parser.end();
  if (batch.length) yield batch;
}

/** Reads a response body as SSE, yielding events one by one. */
export async function* readSSE(response: HttpResponse): AsyncGenerator<SSEEvent> {
  for await (const batch of readSSEBatches(response)) yield* batch;
}
