/** A small SSE client for the test: parses frames from a real socket and waits for events. */
import { PROMPT_WAIT_MS } from "../../../test-support/timeouts.js";

export interface SseEvent {
  id: number | undefined;
  event: string;
  data: unknown;
}

export class EventStream {
  readonly events: SseEvent[] = [];
  readonly #controller = new AbortController();
  readonly #done: Promise<void>;
  #wake: Array<() => void> = [];
  status = 0;

  constructor(url: string, headers: Record<string, string>) {
    this.#done = this.#run(url, headers).catch(() => undefined);
  }

  /** The first event after index `from` of `type` that matches. */
  async next(
    type: string,
    match: (data: Record<string, unknown>) => boolean = () => true,
    from = 0,
    timeoutMs = PROMPT_WAIT_MS,
  ): Promise<SseEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.slice(from).find((e) => e.event === type && match(e.data as Record<string, unknown>));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no ${type} event; saw ${this.events.map((e) => e.event).join(",")}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.#wake.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async close(): Promise<void> {
    this.#controller.abort();
    await Promise.race([this.#done, new Promise((resolve) => setTimeout(resolve, 500))]);
  }

  async #run(url: string, headers: Record<string, string>): Promise<void> {
    const response = await fetch(url, { headers, signal: this.#controller.signal });
    this.status = response.status;
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) !== -1) {
        this.#frame(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
      }
      for (const wake of this.#wake.splice(0)) wake();
    }
  }

  #frame(block: string): void {
    let id: number | undefined;
    let event = "message";
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("id: ")) id = Number(line.slice(4));
      else if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data.push(line.slice(6));
    }
    if (data.length) this.events.push({ id, event, data: JSON.parse(data.join("\n")) as unknown });
  }
}
