/** Reads a Server-Sent Events response with glove-core's parser, event by event, as the studio's page does. */
import { SSEParser, type SSEEvent } from "glove-core/sse";

export interface EventReader {
  /** The events up to and including the first that `stop` accepts. */
  until(stop: (event: SSEEvent) => boolean): Promise<SSEEvent[]>;
  close(): Promise<void>;
}

export function readEvents(response: Response): EventReader {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const queue: SSEEvent[] = [];
  const parser = new SSEParser((event) => queue.push(event));
  return {
    async until(stop) {
      const seen: SSEEvent[] = [];
      for (;;) {
        while (queue.length > 0) {
          const event = queue.shift()!;
          seen.push(event);
          if (stop(event)) return seen;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended after ${seen.map((e) => e.event).join(", ")}`);
        parser.feed(value);
      }
    },
    close: () => reader.cancel(),
  };
}
