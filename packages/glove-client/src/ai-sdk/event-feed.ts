import { ServerRequestError } from "../errors.js";
import { backoffDelay } from "../server/backoff.js";
import { ServerApi } from "../server/server-api.js";
import { readSse } from "../server/sse-reader.js";
import { frameToAction } from "../server/wire-events.js";
import type { ConversationSnapshot, WireEvent } from "../types/wire.js";

/** Failed connections in a row after which a feed gives up (the page's useChat then shows the error). */
const RECONNECTS = 5;

/**
 * One conversation's events, read in order. `open` waits for the stream's first frame, the
 * snapshot, which says where the conversation stands; `next` then hands out the live events. A
 * dropped connection is resumed from the last event id (no gap, no duplicate); a refusal (4xx)
 * ends the feed with its error. Closing it (or aborting `signal`) ends the request.
 */
export class EventFeed {
  readonly #queue: WireEvent[] = [];
  readonly #controller = new AbortController();
  #wake: (() => void) | undefined;
  #failure: { error: unknown } | undefined;
  #closed = false;
  #lastId: number | undefined;
  #snapshot: ConversationSnapshot | undefined;

  private constructor(
    private readonly api: ServerApi,
    private readonly conversationId: string,
  ) {}

  static async open(api: ServerApi, conversationId: string, signal?: AbortSignal): Promise<EventFeed> {
    const feed = new EventFeed(api, conversationId);
    const close = () => feed.close();
    signal?.addEventListener("abort", close, { once: true });
    void feed.#run();
    const first = await feed.next().catch((error: unknown) => {
      feed.close();
      throw error;
    });
    if (first?.type !== "snapshot") {
      feed.close();
      if (signal?.aborted) throw signal.reason;
      throw new ServerRequestError(
        0,
        "GLOVE_NOT_AN_EVENT_STREAM",
        `The event stream of conversation "${conversationId}" did not start with a snapshot: is ${api.base || "/"} a glove-server?`,
      );
    }
    feed.#snapshot = first.snapshot;
    return feed;
  }

  /** Where the conversation stood when the feed opened. */
  get snapshot(): ConversationSnapshot {
    return this.#snapshot!;
  }

  /** The next event; undefined once the feed is closed; throws when the server refused or stayed unreachable. */
  async next(): Promise<WireEvent | undefined> {
    for (;;) {
      const event = this.#queue.shift();
      if (event) return event;
      if (this.#failure) throw this.#failure.error;
      if (this.#closed) return undefined;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  close(): void {
    this.#closed = true;
    this.#controller.abort();
    this.#wake?.();
  }

  async #run(): Promise<void> {
    let failures = 0;
    while (!this.#closed) {
      let received = false;
      try {
        await this.#read(() => (received = true));
      } catch (error) {
        if (this.#closed) return;
        const refused = ServerRequestError.isInstance(error) && error.status >= 400 && error.status < 500;
        if (refused || (!received && failures + 1 >= RECONNECTS)) {
          this.#failure = { error };
          this.#wake?.();
          return;
        }
      }
      if (this.#closed) return;
      // A connection that delivered something dropped normally: retry soon.
      failures = received ? 1 : failures + 1;
      await new Promise((resolve) => setTimeout(resolve, backoffDelay(failures)));
    }
  }

  async #read(received: () => void): Promise<void> {
    const { api, conversationId } = this;
    const response = await api.openEvents(conversationId, this.#lastId, this.#controller.signal);
    if (!response.ok) throw ServerApi.errorOf(response.status, await response.json().catch(() => undefined));
    if (!response.body || !/^text\/event-stream\b/i.test(response.headers.get("content-type") ?? "")) {
      await response.body?.cancel().catch(() => undefined);
      throw new ServerRequestError(
        response.status,
        "GLOVE_NOT_AN_EVENT_STREAM",
        `${api.base || "/"} did not answer with an event stream: is it a glove-server?`,
      );
    }
    await readSse(
      response.body,
      {
        chunk: received,
        frame: (frame) => {
          const mapped = frameToAction(frame);
          if (!mapped) return;
          if (mapped.id !== undefined) this.#lastId = mapped.id;
          this.#queue.push(mapped.action as WireEvent);
          this.#wake?.();
        },
      },
      this.#controller.signal,
    );
  }
}
