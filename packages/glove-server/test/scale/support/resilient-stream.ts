import type { SseEvent } from "../../support/sse-client.js";

/**
 * An event stream that behaves like a browser's EventSource behind a load balancer: when its
 * instance goes away it reconnects to another one with Last-Event-ID. Keeps every event seen.
 */
export class ResilientStream {
  readonly events: SseEvent[] = [];
  reconnects = 0;
  #closed = false;
  #controller = new AbortController();
  readonly #done: Promise<void>;

  constructor(
    private readonly pickUrl: () => string,
    private readonly path: string,
    private readonly user = "alice",
  ) {
    this.#done = this.#run();
  }

  get lastId(): number | undefined {
    for (let i = this.events.length - 1; i >= 0; i--) if (this.events[i]!.id !== undefined) return this.events[i]!.id;
    return undefined;
  }

  async waitFor(predicate: (events: SseEvent[]) => boolean, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.events)) {
      if (Date.now() > deadline)
        throw new Error(
          `timed out; last events: ${this.events
            .slice(-8)
            .map((e) => `${e.id}:${e.event}`)
            .join(",")}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#controller.abort();
    await this.#done.catch(() => undefined);
  }

  async #run(): Promise<void> {
    while (!this.#closed) {
      try {
        const headers: Record<string, string> = { authorization: `Bearer ${this.user}` };
        if (this.lastId !== undefined) headers["last-event-id"] = String(this.lastId);
        const response = await fetch(this.pickUrl() + this.path, { headers, signal: this.#controller.signal });
        if (response.status !== 200 || !response.body) throw new Error(`status ${response.status}`);
        const decoder = new TextDecoder();
        let buffer = "";
        for await (const chunk of response.body) {
          buffer += decoder.decode(chunk as Uint8Array, { stream: true });
          let end: number;
          while ((end = buffer.indexOf("\n\n")) !== -1) {
            this.#frame(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
          }
        }
      } catch {
        // the instance died (or we closed): reconnect elsewhere
      }
      if (this.#closed) return;
      this.reconnects++;
      await new Promise((resolve) => setTimeout(resolve, 50));
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
    if (data.length) this.events.push({ id, event, data: JSON.parse(data.join("\n")) });
  }
}
