import { PROMPT_WAIT_MS } from "../../../../test-support/timeouts.js";

/** One parsed Server-Sent Event. */
export interface SseEvent {
  id: number | undefined;
  event: string;
  data: unknown;
}

/**
 * A test client for the events route over a real socket: parses frames as they arrive (any chunk
 * boundaries), keeps them all, and can stop mid-stream like a closed tab.
 */
export class SseClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  headers: Headers | undefined;
  status = 0;
  #controller = new AbortController();
  #done: Promise<void>;
  #listeners = new Set<() => void>();
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  #paused: { promise: Promise<void>; resume: () => void } | undefined;
  readonly #readDelayMs: number;

  constructor(url: string, headers: Record<string, string> = {}, options: { readDelayMs?: number } = {}) {
    this.#readDelayMs = options.readDelayMs ?? 0;
    this.#done = this.#run(url, headers);
  }

  /** Stops reading from the socket (a reader that fell asleep); `resume()` reads on. */
  pause(): void {
    if (this.#paused) return;
    let resume = () => undefined as void;
    const promise = new Promise<void>((resolve) => (resume = resolve));
    this.#paused = { promise, resume };
  }

  resume(): void {
    this.#paused?.resume();
    this.#paused = undefined;
  }

  get lastId(): number | undefined {
    for (let i = this.events.length - 1; i >= 0; i--) if (this.events[i]!.id !== undefined) return this.events[i]!.id;
    return undefined;
  }

  /** Waits until `predicate` holds over the events seen so far. */
  async waitFor(predicate: (events: SseEvent[]) => boolean, timeoutMs = PROMPT_WAIT_MS): Promise<SseEvent[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.events)) {
      if (Date.now() > deadline) throw new Error(`timed out; events: ${this.events.map((e) => e.event).join(",")}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.#listeners.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, 50);
        this.#listeners.add(wake);
      });
    }
    return this.events;
  }

  waitForEvent(
    type: string,
    match: (data: Record<string, unknown>) => boolean = () => true,
    timeoutMs?: number,
  ): Promise<SseEvent> {
    const find = (events: SseEvent[]) =>
      events.find((e) => e.event === type && match(e.data as Record<string, unknown>));
    return this.waitFor((events) => find(events) !== undefined, timeoutMs).then((events) => find(events)!);
  }

  /** Closes the connection (like closing the tab). */
  async close(): Promise<void> {
    this.#controller.abort();
    this.resume();
    // undici may leave a pending read unsettled when the server already dropped the socket.
    void this.#reader?.cancel().catch(() => undefined);
    await Promise.race([this.#done.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 500))]);
  }

  async #run(url: string, headers: Record<string, string>): Promise<void> {
    const response = await fetch(url, { headers, signal: this.#controller.signal });
    this.status = response.status;
    this.headers = response.headers;
    if (!response.body || response.status !== 200) return;
    const decoder = new TextDecoder();
    let buffer = "";
    const reader = response.body.getReader();
    this.#reader = reader;
    try {
      for (;;) {
        if (this.#paused) await this.#paused.promise;
        if (this.#readDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.#readDelayMs));
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) !== -1) {
          this.#frame(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
        for (const wake of [...this.#listeners]) wake();
      }
    } catch {
      // aborted by close(), or the server went away
    }
  }

  #frame(block: string): void {
    let id: number | undefined;
    let event = "message";
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) this.comments.push(line);
      else if (line.startsWith("id: ")) id = Number(line.slice(4));
      else if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data.push(line.slice(6));
    }
    if (data.length) this.events.push({ id, event, data: JSON.parse(data.join("\n")) });
  }
}
