/**
 * A Server-Sent Events response body with back-pressure: `send` waits while the
 * client is not reading, so a slow browser slows the upstream read instead of
 * growing server memory. Cancelling the body (the client went away) ends the
 * channel and tells the owner, who aborts the upstream request.
 */

/** Bytes queued before `send` waits for the client to read. */
const HIGH_WATER_MARK = 64 * 1024;
/** Event names are written raw on the `event:` line: anything else could inject fields. */
const SAFE_EVENT_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
};

export interface SseChannelOptions {
  /** Interval of comment lines keeping idle proxies from closing the stream (ms, 0: none). */
  keepAliveMs: number;
  /** The client stopped reading for good. */
  onCancel: () => void;
}

export class SseChannel {
  readonly stream: ReadableStream<Uint8Array>;
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private closed = false;
  private waiters: Array<() => void> = [];
  private readonly keepAlive: ReturnType<typeof setInterval> | undefined;
  private readonly encoder = new TextEncoder();

  constructor(options: SseChannelOptions) {
    this.stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
        },
        pull: () => this.wake(),
        cancel: () => {
          this.finish();
          options.onCancel();
        },
      },
      new ByteLengthQueuingStrategy({ highWaterMark: HIGH_WATER_MARK }),
    );
    if (options.keepAliveMs > 0)
      this.keepAlive = setInterval(() => this.write(": keep-alive\n\n"), options.keepAliveMs);
  }

  /** True once closed or cancelled; later sends are dropped. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Queues one event and resolves when the client has room for more. */
  async send(event: string, data: unknown): Promise<void> {
    if (this.closed || !SAFE_EVENT_NAME.test(event)) return;
    // JSON text has no raw newlines, so the data always fits on one `data:` line.
    this.write(`event: ${event}\ndata: ${JSON.stringify(data ?? null)}\n\n`);
    while (!this.closed && (this.controller?.desiredSize ?? 1) <= 0) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Ends the stream after what is queued. */
  close(): void {
    if (this.closed) return;
    this.finish();
    this.controller?.close();
  }

  private write(text: string): void {
    if (!this.closed) this.controller?.enqueue(this.encoder.encode(text));
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  private finish(): void {
    this.closed = true;
    if (this.keepAlive !== undefined) clearInterval(this.keepAlive);
    this.wake();
  }
}
