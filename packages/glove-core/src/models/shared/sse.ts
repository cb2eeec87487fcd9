import type { HttpResponse } from "./http/types.js";

/** One Server-Sent Event (https://html.spec.whatwg.org/multipage/server-sent-events.html). */
export interface SSEEvent {
  /** The `event:` field, "message" when absent. */
  event: string;
  data: string;
  id?: string;
}

/**
 * Incremental SSE parser: feed it decoded text as it arrives, it calls `onEvent`
 * for every complete event. Handles CRLF / CR / LF line endings (also split
 * across chunks), multi-line `data:`, comments and the optional space after the
 * colon. An event still incomplete when the stream ends is dropped, as the
 * specification says.
 */
export class SSEParser {
  private buffer = "";
  private data: string[] = [];
  private event = "";
  private id: string | undefined;
  /** A chunk ended in "\r": a "\n" at the start of the next one belongs to it. */
  private pendingCR = false;

  constructor(private readonly onEvent: (event: SSEEvent) => void) {}

  feed(chunk: string): void {
    if (this.pendingCR) {
      this.pendingCR = false;
      if (chunk.startsWith("\n")) chunk = chunk.slice(1);
    }
    let text = this.buffer ? this.buffer + chunk : chunk;
    let start = 0;
    const length = text.length;
    if (text.indexOf("\r") === -1) {
      // LF only (what model servers send): the engine finds the line ends, not a loop over every character.
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
    text = start < length ? text.slice(start) : "";
    this.buffer = text;
  }

  /**
   * The stream ended. A partial line is dropped (the connection was cut), but an
   * event whose lines all arrived and only lacks the closing blank line is
   * dispatched: some servers end with `data: [DONE]\n`.
   */
  end(): void {
    if (this.buffer === "" && this.data.length) this.line("");
    this.buffer = "";
    this.data = [];
  }

  private line(line: string): void {
    if (line === "") {
      if (this.data.length) {
        const event: SSEEvent = { event: this.event || "message", data: this.data.join("\n") };
        if (this.id !== undefined) event.id = this.id;
        this.data = [];
        this.event = "";
        this.onEvent(event);
      } else {
        this.event = "";
      }
      return;
    }
    if (line.charCodeAt(0) === 58 /* ":" comment */) return;
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
      default:
        // "retry" and unknown fields are ignored: reconnection is not ours to do.
        break;
    }
  }
}

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
