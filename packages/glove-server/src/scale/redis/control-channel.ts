import type { Redis } from "ioredis";
import type { RequestIssue } from "../../errors.js";

/** What one instance asks the instance running a conversation's turn. */
export type ControlRequest =
  | { op: "slot"; slotId: string; resolve: unknown }
  | { op: "slot"; slotId: string; reject: unknown }
  | { op: "abort" };

/** The running worker's answer: a JSON body, or the HTTP error the route answers with. */
export type ControlReply =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; status: number; code: string; message: string; issues?: RequestIssue[] };

interface Envelope {
  reqId: string;
  replyTo: string;
  request: ControlRequest;
}

/**
 * Slot answers and aborts reach whichever instance runs the turn: it subscribes to the
 * conversation's control channel while the turn runs, applies the request and publishes the answer
 * to the asking instance's reply channel. One subscriber connection per instance, whatever the
 * number of conversations.
 */
export class ControlChannel {
  readonly #handlers = new Map<string, (request: ControlRequest) => Promise<ControlReply>>();
  readonly #pending = new Map<string, (reply: ControlReply) => void>();
  readonly #replyChannel: string;
  readonly #ready: Promise<unknown>;

  constructor(
    private readonly command: Redis,
    private readonly subscriber: Redis,
    private readonly prefix: string,
    instanceId: string,
    private readonly onError: (error: unknown) => void,
  ) {
    this.#replyChannel = `${prefix}:reply:${instanceId}`;
    subscriber.on("message", (channel: string, text: string) => void this.#onMessage(channel, text));
    this.#ready = subscriber.subscribe(this.#replyChannel);
  }

  ready(): Promise<unknown> {
    return this.#ready;
  }

  /** Serves a conversation's requests while its turn runs here; the returned function stops (only this handler). */
  async serve(channel: string, handler: (request: ControlRequest) => Promise<ControlReply>): Promise<() => Promise<void>> {
    this.#handlers.set(channel, handler);
    await this.subscriber.subscribe(channel);
    return async () => {
      // A newer attempt of the same turn on this instance may serve the channel now: leave it.
      if (this.#handlers.get(channel) !== handler) return;
      this.#handlers.delete(channel);
      await this.subscriber.unsubscribe(channel).catch(() => undefined);
    };
  }

  /** Asks the instance running the turn; `undefined` when no instance serves the conversation now or it does not answer in time. */
  async request(channel: string, request: ControlRequest, timeoutMs: number): Promise<ControlReply | undefined> {
    await this.#ready;
    const reqId = crypto.randomUUID();
    const answer = new Promise<ControlReply | undefined>((resolve) => {
      const timer = setTimeout(() => {
        this.#pending.delete(reqId);
        resolve(undefined);
      }, timeoutMs);
      this.#pending.set(reqId, (reply) => {
        clearTimeout(timer);
        this.#pending.delete(reqId);
        resolve(reply);
      });
    });
    const receivers = await this.command.publish(channel, JSON.stringify({ reqId, replyTo: this.#replyChannel, request } satisfies Envelope));
    if (receivers === 0) {
      this.#pending.get(reqId)?.({ ok: false, status: 0, code: "", message: "" });
      return undefined;
    }
    const reply = await answer;
    return reply && reply.ok === false && reply.status === 0 ? undefined : reply;
  }

  close(): void {
    for (const resolve of this.#pending.values()) resolve({ ok: false, status: 0, code: "", message: "" });
    this.#handlers.clear();
  }

  async #onMessage(channel: string, text: string): Promise<void> {
    try {
      if (channel === this.#replyChannel) {
        const { reqId, reply } = JSON.parse(text) as { reqId: string; reply: ControlReply };
        this.#pending.get(reqId)?.(reply);
        return;
      }
      const handler = this.#handlers.get(channel);
      if (!handler) return;
      const envelope = JSON.parse(text) as Envelope;
      if (!envelope.replyTo.startsWith(`${this.prefix}:reply:`)) return;
      const reply = await handler(envelope.request);
      await this.command.publish(envelope.replyTo, JSON.stringify({ reqId: envelope.reqId, reply }));
    } catch (error) {
      this.onError(error);
    }
  }
}
