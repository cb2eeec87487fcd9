import { SSEParser } from "glove-core/sse";

/** One Server-Sent Event as the wire carries it. */
export interface SseFrame {
  /** The `id:` field, when the frame had one. */
  id: string | undefined;
  /** The `event:` field ("message" when absent). */
  event: string;
  data: string;
}

export interface SseHandlers {
  frame(frame: SseFrame): void;
  /** Comment lines (`: heartbeat`) — proof the connection is alive. */
  comment?(text: string): void;
  /** The server's suggested reconnection delay. */
  retry?(ms: number): void;
}

/**
 * glove-core's SSE parser (`glove-core/sse`) behind the handler shape the server session uses: a
 * frame's `id` is only its own `id:` line (the session keeps the last one for Last-Event-ID), and
 * an event still incomplete when the stream ends is dropped, as the format says.
 */
export class SseParser {
  readonly #parser: SSEParser;

  constructor(handlers: SseHandlers) {
    this.#parser = new SSEParser((event) => handlers.frame({ id: event.id, event: event.event, data: event.data }), {
      idScope: "event",
      onComment: handlers.comment?.bind(handlers),
      onRetry: handlers.retry?.bind(handlers),
    });
  }

  push(chunk: string): void {
    this.#parser.feed(chunk);
  }

  /** The stream ended: an incomplete frame is discarded, as the format requires. */
  end(): void {
    this.#parser.discard();
  }
}

/**
 * Reads an event stream body to its end, calling the handlers as frames complete. fetch-based
 * (unlike EventSource) so requests carry any headers and credentials. Resolves when the server
 * ends the stream; rejects when the connection fails or `signal` aborts.
 */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  handlers: SseHandlers & { chunk?(): void },
  signal?: AbortSignal,
): Promise<void> {
  const parser = new SseParser(handlers);
  const decoder = new TextDecoder();
  const reader = body.getReader();
  const onAbort = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      if (signal?.aborted) throw signal.reason ?? new Error("aborted");
      const { done, value } = await reader.read();
      if (done) break;
      handlers.chunk?.();
      parser.push(decoder.decode(value, { stream: true }));
    }
    parser.push(decoder.decode());
    parser.end();
    if (signal?.aborted) throw signal.reason ?? new Error("aborted");
  } finally {
    signal?.removeEventListener("abort", onAbort);
    try {
      reader.releaseLock();
    } catch {
      // a read may still be settling after cancel; the lock goes with the reader
    }
  }
}
