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
 * An incremental parser for the `text/event-stream` format (WHATWG HTML, "Server-sent events"):
 * lines end in CRLF, LF or CR, chunk boundaries may fall anywhere (also between CR and LF),
 * `data:` lines join with newlines, a blank line dispatches, a frame without data is dropped.
 */
export class SseParser {
  #buffer = "";
  #skipLf = false;
  #id: string | undefined;
  #event = "";
  #data: string[] = [];

  constructor(private readonly handlers: SseHandlers) {}

  push(chunk: string): void {
    let text = chunk;
    if (this.#skipLf && text.startsWith("\n")) text = text.slice(1);
    this.#skipLf = false;
    this.#buffer += text;
    let start = 0;
    for (let i = 0; i < this.#buffer.length; i++) {
      const char = this.#buffer[i];
      if (char !== "\n" && char !== "\r") continue;
      this.#line(this.#buffer.slice(start, i));
      if (char === "\r") {
        if (i + 1 === this.#buffer.length) this.#skipLf = true;
        else if (this.#buffer[i + 1] === "\n") i++;
      }
      start = i + 1;
    }
    this.#buffer = this.#buffer.slice(start);
  }

  /** The stream ended: an incomplete frame is discarded, as the format requires. */
  end(): void {
    this.#buffer = "";
    this.#reset();
  }

  #line(line: string): void {
    if (line === "") {
      if (this.#data.length > 0)
        this.handlers.frame({ id: this.#id, event: this.#event || "message", data: this.#data.join("\n") });
      this.#reset();
      return;
    }
    if (line.startsWith(":")) {
      this.handlers.comment?.(line.slice(1).trimStart());
      return;
    }
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.#data.push(value);
    else if (field === "event") this.#event = value;
    else if (field === "id" && !value.includes("\0")) this.#id = value;
    else if (field === "retry" && /^\d+$/.test(value)) this.handlers.retry?.(Number(value));
  }

  #reset(): void {
    this.#id = undefined;
    this.#event = "";
    this.#data = [];
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
