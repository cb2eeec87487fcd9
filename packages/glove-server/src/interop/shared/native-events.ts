import type { ConversationHandle } from "../../conversations/conversation-handle.js";
import { conversationStream } from "../../conversations/conversation-stream.js";
import type { SseSource } from "../../http/sse-response.js";

/** One event of a conversation as glove-server's native stream carries it. */
export interface NativeEvent {
  /** Its id in the conversation's event log. */
  id: number;
  /** `turn_start`, `text_delta`, `slot_push`, … or `snapshot` (a fresh view, see below). */
  type: string;
  data: Record<string, unknown>;
}

/** What a read returns: the events since the last read, or a heartbeat when nothing happened. */
export type NativeRead = { kind: "events"; events: NativeEvent[] } | { kind: "heartbeat" };

export interface NativeEventsOptions {
  /** The last event id the reader has seen; events after it follow. */
  after: number;
  heartbeatMs: number;
}

/**
 * A conversation's events after a position, parsed, for routes that speak another protocol (AG-UI,
 * the AI SDK's stream): the same reader as the native event stream (it holds unread events, sends
 * heartbeats, and keeps the conversation in memory while open). A reader that fell out of the
 * replay window gets a `snapshot` event (the conversation's snapshot) and continues after it.
 */
export class NativeEvents {
  readonly #source: SseSource;
  #closed = false;

  constructor(conversation: ConversationHandle, options: NativeEventsOptions) {
    this.#source = conversationStream(conversation, {
      after: options.after,
      heartbeatMs: options.heartbeatMs,
      retryMs: 1000,
    });
  }

  /** The next events; undefined once the conversation's log closed (it left memory) or after close(). */
  async read(): Promise<NativeRead | undefined> {
    for (;;) {
      if (this.#closed) return undefined;
      const text = await this.#source.read();
      if (text === undefined) return undefined;
      const events = parseFrames(text);
      if (events.length > 0) return { kind: "events", events };
      if (text.includes(": heartbeat")) return { kind: "heartbeat" };
    }
  }

  /** Stops reading; the conversation may leave memory once nothing else holds it. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#source.cancel();
  }
}

/** The events in SSE text written by the event log (`id:`, `event:`, one `data:` line each). */
export function parseFrames(text: string): NativeEvent[] {
  const events: NativeEvent[] = [];
  for (const block of text.split("\n\n")) {
    let id: number | undefined;
    let type: string | undefined;
    let data: string | undefined;
    for (const line of block.split("\n")) {
      if (line.startsWith("id: ")) id = Number(line.slice(4));
      else if (line.startsWith("event: ")) type = line.slice(7);
      else if (line.startsWith("data: ")) data = line.slice(6);
    }
    if (id === undefined || type === undefined || data === undefined) continue;
    const parsed: unknown = JSON.parse(data);
    events.push({
      id,
      type,
      data: typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {},
    });
  }
  return events;
}
