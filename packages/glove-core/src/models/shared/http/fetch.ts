import { BodyReadError, type HttpRequest, type HttpResponse, type HttpTransport } from "./types.js";

/**
 * The transport over `fetch`: the one given, else `globalThis.fetch` looked up at each request
 * (and called unbound: browsers reject fetch called on another object).
 */
export function fetchTransport(doFetch?: typeof fetch): HttpTransport {
  return async (request: HttpRequest) => {
    const response = await (doFetch ?? globalThis.fetch)(request.url, {
      method: "POST",
      headers: request.headers,
      body: request.body,
      signal: request.signal,
      // No window and no redirects: lets fetch skip cloning (and teeing) the
      // request body on every call. Provider APIs answer POSTs in place.
      window: null,
      redirect: "error",
    });
    return fromFetchResponse(response);
  };
}

/** A web `Response` read through the transport's interface. */
export function fromFetchResponse(response: Response): HttpResponse {
  const body = new FetchBody(response.body);
  return {
    status: response.status,
    ok: response.ok,
    headers: response.headers,
    textChunks: () => body.text(),
    byteChunks: () => body.bytes(),
    async text() {
      let text = "";
      for await (const chunk of body.text()) text += chunk;
      return text;
    },
    cancel: () => body.cancel(),
  };
}

/** A body read once through one reader, which `cancel()` reaches even mid-read (the stream is locked then). */
class FetchBody {
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;

  constructor(private readonly body: ReadableStream<Uint8Array> | null) {}

  cancel(): void {
    (this.reader ?? this.body)?.cancel().catch(() => {});
  }

  /** The body as text, decoded in the same loop as it is read (one generator, one step per chunk). */
  text(): AsyncGenerator<string> {
    const decoder = new TextDecoder();
    return this.read(
      (bytes) => decoder.decode(bytes, { stream: true }),
      () => decoder.decode(),
    );
  }

  bytes(): AsyncGenerator<Uint8Array> {
    return this.read((bytes) => bytes);
  }

  /**
   * The body chunk by chunk (none when there is none), each mapped; empty results are skipped. A
   * failed read becomes a BodyReadError; the reader is cancelled when the consumer stops early or
   * throws, and released in every case.
   */
  private async *read<T extends string | Uint8Array>(
    map: (bytes: Uint8Array) => T,
    flush?: () => T,
  ): AsyncGenerator<T> {
    if (!this.body) return;
    const reader = (this.reader = this.body.getReader());
    let finished = false;
    try {
      for (;;) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (error) {
          throw new BodyReadError(error);
        }
        if (chunk.done) break;
        const value = map(chunk.value);
        if (value.length) yield value;
      }
      finished = true;
      const rest = flush?.();
      if (rest?.length) yield rest;
    } finally {
      if (!finished) reader.cancel().catch(() => {});
      reader.releaseLock();
    }
  }
}
