/** Something that produces SSE text in batches: `undefined` ends the stream. */
export interface SseSource {
  read(): Promise<string | undefined>;
  /** The client went away. */
  cancel(): void;
}

const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
  // Tells nginx-style proxies not to buffer the stream.
  "x-accel-buffering": "no",
};

const sources = new WeakMap<Response, SseSource>();

/**
 * A streaming Response over an SseSource. The body is pulled, so a reader that stops reading
 * stops the source too (back-pressure). `listenNode` recognises these responses and writes the
 * text straight to the socket, skipping the web-stream layer on the hot path.
 */
export function sseResponse(source: SseSource, headers?: Record<string, string>): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const text = await source.read();
        if (text === undefined) controller.close();
        else controller.enqueue(encoder.encode(text));
      },
      cancel() {
        source.cancel();
      },
    },
    { highWaterMark: 0 },
  );
  const response = new Response(body, { status: 200, headers: { ...SSE_HEADERS, ...headers } });
  sources.set(response, source);
  return response;
}

/** The source behind a response made by `sseResponse`, if it is one. */
export function sseSourceOf(response: Response): SseSource | undefined {
  return sources.get(response);
}
