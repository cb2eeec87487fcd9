/**
 * The bench's clients, on node:http (cheap, and the same for both servers): JSON calls on a
 * keep-alive pool, and one SSE connection per conversation that counts frames as they arrive.
 */
import http from "node:http";
import type { WireEvent } from "./bare-target.js";
import { TOKEN } from "./fixtures.js";

export class BenchClient {
  // Idle sockets go before node:http's 5 s keepAliveTimeout would close them under us.
  readonly #agent = new http.Agent({ keepAlive: true, maxSockets: 100, timeout: 4000 });
  readonly #base: URL;

  constructor(
    base: string,
    readonly token = TOKEN,
  ) {
    this.#base = new URL(base);
  }

  async request(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    try {
      return await this.#send(method, path, body);
    } catch (error) {
      // A kept-alive socket the server closed just as we reused it (Node's documented retry case).
      if ((error as { retry?: boolean }).retry) return this.#send(method, path, body);
      throw error;
    }
  }

  #send(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: this.#base.hostname,
          port: this.#base.port,
          path,
          method,
          agent: this.#agent,
          headers: {
            authorization: `Bearer ${this.token}`,
            ...(payload === undefined
              ? {}
              : { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }),
          },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as unknown) : undefined }),
          );
          res.on("error", reject);
        },
      );
      req.on("error", (error: NodeJS.ErrnoException) => {
        reject(req.reusedSocket && error.code === "ECONNRESET" ? Object.assign(error, { retry: true }) : error);
      });
      req.end(payload);
    });
  }

  async createConversation(agent = "stream"): Promise<string> {
    const created = await this.request("POST", "/conversations", { agent });
    if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
    return (created.body as { id: string }).id;
  }

  async postMessage(id: string, text: string): Promise<void> {
    const sent = await this.request("POST", `/conversations/${id}/messages`, { text });
    if (sent.status !== 202) throw new Error(`message: ${sent.status} ${JSON.stringify(sent.body)}`);
  }

  async deleteConversation(id: string): Promise<void> {
    const deleted = await this.request("DELETE", `/conversations/${id}`);
    if (deleted.status !== 204) throw new Error(`delete: ${deleted.status} ${JSON.stringify(deleted.body)}`);
  }

  openStream(id: string, capture = false): EventStream {
    return new EventStream(this.#base, `/conversations/${id}/events`, this.token, capture);
  }

  close(): void {
    this.#agent.destroy();
  }
}

/** One SSE connection: counts the frames after the snapshot, resolves `turnEnd` at the first turn_end. */
export class EventStream {
  /** Frames after the snapshot, turn_end included. */
  frames = 0;
  textDeltas = 0;
  /** Characters received, preamble and snapshot included. */
  chars = 0;
  /** With `capture`: every event after the snapshot. */
  readonly events: WireEvent[] = [];
  readonly snapshot: Promise<void>;
  readonly turnEnd: Promise<void>;
  #buffer = "";
  #seenSnapshot = false;
  #ended = false;
  #onSnapshot: () => void = () => undefined;
  #onTurnEnd: () => void = () => undefined;
  /** turn_end frames seen, and who waits for a given count of them. */
  #turnEnds = 0;
  #turnWaiters: Array<{ count: number; resolve: () => void }> = [];
  #fail: (error: Error) => void = () => undefined;
  readonly #request: http.ClientRequest;

  constructor(
    base: URL,
    path: string,
    token: string,
    private readonly capture: boolean,
  ) {
    const failed = new Promise<never>((_, reject) => (this.#fail = reject));
    failed.catch(() => undefined);
    this.snapshot = Promise.race([new Promise<void>((resolve) => (this.#onSnapshot = resolve)), failed]);
    this.turnEnd = Promise.race([new Promise<void>((resolve) => (this.#onTurnEnd = resolve)), failed]);
    this.snapshot.catch(() => undefined);
    this.turnEnd.catch(() => undefined);
    this.#request = http.get(
      {
        host: base.hostname,
        port: base.port,
        path,
        agent: false,
        headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
      },
      (res) => {
        if (res.statusCode !== 200) {
          this.#fail(new Error(`events: HTTP ${res.statusCode}`));
          res.resume();
          return;
        }
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => this.#data(chunk));
        res.on("end", () => {
          if (!this.#ended) this.#fail(new Error("events: the stream ended before turn_end"));
        });
        res.on("error", () => undefined);
      },
    );
    this.#request.on("error", (error) => {
      if (!this.#ended) this.#fail(error);
    });
  }

  close(): void {
    this.#ended = true;
    this.#request.destroy();
  }

  #data(chunk: string): void {
    this.chars += chunk.length;
    const buffer = this.#buffer + chunk;
    let start = 0;
    let end: number;
    while ((end = buffer.indexOf("\n\n", start)) !== -1) {
      this.#frame(buffer.slice(start, end));
      start = end + 2;
    }
    this.#buffer = start === 0 ? buffer : buffer.slice(start);
  }

  #frame(block: string): void {
    const at = block.startsWith("event: ") ? 0 : block.indexOf("\nevent: ") + 1;
    if (at === 0 && !block.startsWith("event: ")) return; // retry preamble or heartbeat comment
    const eol = block.indexOf("\n", at);
    const type = block.slice(at + 7, eol === -1 ? undefined : eol);
    if (!this.#seenSnapshot) {
      if (type === "snapshot") {
        this.#seenSnapshot = true;
        this.#onSnapshot();
      }
      return;
    }
    this.frames++;
    if (type === "text_delta") this.textDeltas++;
    if (this.capture) {
      const data = block
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => line.slice(6))
        .join("\n");
      this.events.push({ type, data: JSON.parse(data) as unknown });
    }
    if (type === "turn_end") {
      this.#turnEnds++;
      this.#turnWaiters = this.#turnWaiters.filter((w) => (w.count <= this.#turnEnds ? void w.resolve() : true));
      if (!this.#ended) {
        this.#ended = true;
        this.#onTurnEnd();
      }
    }
  }

  /** Resolves once `count` turn_end frames arrived (for streams that live over several turns). */
  turnEnds(count: number): Promise<void> {
    if (this.#turnEnds >= count) return Promise.resolve();
    return new Promise((resolve) => this.#turnWaiters.push({ count, resolve }));
  }
}

/** Runs `fn` over `items`, at most `limit` at a time. */
export async function pool<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Rejects after `ms` with `what` in the message (a stuck bench says where it is stuck). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
