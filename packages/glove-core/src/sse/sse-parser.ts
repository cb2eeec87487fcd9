/** One Server-Sent Event (https://html.spec.whatwg.org/multipage/server-sent-events.html). */
export interface SSEEvent {
  /** The `event:` field, "message" when absent. */
  event: string;
  data: string;
  /** The event id (see `SSEParserOptions.idScope`); absent when there is none. */
  id?: string;
}

/** What an `SSEParser` reports besides events, and how it reports ids. */
export interface SSEParserOptions {
  /** Comment lines (`: heartbeat`), without the colon and leading spaces: proof a connection is alive. */
  onComment?: ((text: string) => void) | undefined;
  /** A `retry:` line: the server's suggested reconnection delay, in milliseconds. */
  onRetry?: ((ms: number) => void) | undefined;
  /**
   * "stream" (default, as the format and EventSource's `lastEventId`): an event carries the last
   * id seen on the stream. "event": only an `id:` line of the event itself gives it an id.
   */
  idScope?: "stream" | "event" | undefined;
}

/**
 * Incremental SSE parser: feed it decoded text as it arrives, it calls `onEvent` for every
 * complete event. Handles CRLF / CR / LF line endings (also split across chunks, between CR and
 * LF too), multi-line `data:`, comments, `retry:` and the optional space after the colon. It
 * imports nothing, so browsers and servers share it (`glove-core/sse`).
 */
export class SSEParser {
  private buffer = "";
  private data: string[] = [];
  private event = "";
  private id: string | undefined;
  /** A chunk ended in "\r": a "\n" at the start of the next one belongs to it. */
  private pendingCR = false;
  private readonly options: SSEParserOptions;

  constructor(
    private readonly onEvent: (event: SSEEvent) => void,
    options: SSEParserOptions = {},
  ) {
    this.options = options;
  }

  feed(chunk: string): void {
    if (this.pendingCR) {
      this.pendingCR = false;
      if (chunk.startsWith("\n")) chunk = chunk.slice(1);
    }
    const text = this.buffer ? this.buffer + chunk : chunk;
    let start = 0;
    const length = text.length;
    if (text.indexOf("\r") === -1) {
      // LF only (what most servers send): the engine finds the line ends, not a loop over every character.
      for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
        this.line(text.slice(start, end));
        start = end + 1;
      }
      this.buffer = start < length ? text.slice(start) : "";
      return;
    }
    for (let i = 0; i < length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.line(text.slice(start, i));
      if (c === 13) {
        if (i + 1 < length) {
          if (text.charCodeAt(i + 1) === 10) i++;
        } else {
          this.pendingCR = true;
        }
      }
      start = i + 1;
    }
    this.buffer = start < length ? text.slice(start) : "";
  }

  /**
   * The stream ended. A partial line is dropped (the connection was cut), but an event whose
   * lines all arrived and only lacks the closing blank line is dispatched: some model servers end
   * with `data: [DONE]\n`. Use `discard()` for the format's strict reading.
   */
  end(): void {
    if (this.buffer === "" && this.data.length) this.line("");
    this.discard();
  }

  /** The stream ended: whatever event is incomplete is dropped, as the format says. */
  discard(): void {
    this.buffer = "";
    this.pendingCR = false;
    this.data = [];
    this.event = "";
    if (this.options.idScope === "event") this.id = undefined;
  }

  private line(line: string): void {
    if (line === "") {
      if (this.data.length) {
        const event: SSEEvent = { event: this.event || "message", data: this.data.join("\n") };
        if (this.id !== undefined) event.id = this.id;
        this.data = [];
        this.event = "";
        if (this.options.idScope === "event") this.id = undefined;
        this.onEvent(event);
      } else {
        this.event = "";
        if (this.options.idScope === "event") this.id = undefined;
      }
      return;
    }
    if (line.charCodeAt(0) === 58 /* ":" comment */) {
      this.options.onComment?.(line.slice(1).trimStart());
      return;
    }
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    switch (field) {
      case "data":
        this.data.push(value);
        break;
      case "event":
        this.event = value;
        break;
      case "id":
        if (!value.includes("\0")) this.id = value;
        break;
      case "retry":
        if (/^\d+$/.test(value)) this.options.onRetry?.(Number(value));
        break;
      default:
        // Unknown fields are ignored, as the format says.
        break;
    }
  }
}
