import { SSEParser } from "glove-core/sse";

/** One event of a conversation's stream, its data parsed. */
export interface FeedEvent {
  type: string;
  data: Record<string, unknown>;
}

/** Reads a glove-server event stream (a `Response` of `GET …/events`) one event at a time. */
export class EventFeed {
  readonly #queue: FeedEvent[] = [];
  readonly #reader: ReadableStreamDefaultReader<string>;
  readonly #parser: SSEParser;
  #done = false;

  constructor(body: ReadableStream<Uint8Array>) {
    this.#reader = body.pipeThrough(new TextDecoderStream()).getReader();
    this.#parser = new SSEParser((event) => {
      this.#queue.push({
        type: event.event,
        data: event.data ? (JSON.parse(event.data) as Record<string, unknown>) : {},
      });
    });
  }

  /** The next event; undefined once the stream ended. */
  async next(): Promise<FeedEvent | undefined> {
    while (!this.#queue.length) {
      if (this.#done) return undefined;
      const { value, done } = await this.#reader.read();
      if (done) this.#done = true;
      else this.#parser.feed(value);
    }
    return this.#queue.shift();
  }

  async close(): Promise<void> {
    this.#done = true;
    await this.#reader.cancel().catch(() => undefined);
  }
}
