import type { Redis } from "ioredis";
import type { RequestIssue } from "../../errors.js";

/** What one instance asks the instance running a conversation's turn (or owning the conversation: `call`). */
export type ControlRequest =
  | { op: "slot"; slotId: string; resolve: unknown }
  | { op: "slot"; slotId: string; reject: unknown }
  | { op: "abort" }
  | { op: "call"; method: string; args: unknown[]; principal: { id: string } };

/** The running worker's answer: a JSON body, or the HTTP error the route answers with. */
export type ControlReply =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; status: number; code: string; message: string; issues?: RequestIssue[] };

/** The answer of an instance that runs no turn of the conversation (status 0: never sent to a client). */
const NOT_SERVED: ControlReply = { ok: false, status: 0, code: "", message: "" };

interface Envelope {
  reqId: string;
  replyTo: string;
  /** The conversation's control key (its handler on the receiving instance). */
  channel: string;
  request: ControlRequest;
}

/** The instance named in a worker's fencing token (`<turnId>:<instanceId>:<random>`, see `fenceFor`). */
function instanceOf(fence: string | null): string | undefined {
  const parts = fence?.split(":") ?? [];
  return parts.length >= 3 ? parts[parts.length - 2] : undefined;
}

/**
 * Slot answers and aborts reach whichever instance runs the turn. Each instance subscribes once,
 * when it starts, to its own request channel; the run lock's fencing token names the instance
 * holding the turn, so a request reads it and publishes there, and the instance applies it with
 * the handler its running turn registered (or answers that it runs none) and publishes the answer
 * to the asking instance's reply channel. No SUBSCRIBE per turn (there used to be one, and an
 * UNSUBSCRIBE, on every turn); one subscriber connection per instance, whatever the number of
 * conversations.
 */
export class ControlChannel {
  readonly #handlers = new Map<string, (request: ControlRequest) => Promise<ControlReply>>();
  readonly #pending = new Map<string, (reply: ControlReply) => void>();
  readonly #replyChannel: string;
  readonly #requestChannel: string;
  readonly #ready: Promise<unknown>;

  constructor(
    private readonly command: Redis,
    private readonly subscriber: Redis,
    private readonly prefix: string,
    private readonly instanceId: string,
    private readonly onError: (error: unknown) => void,
  ) {
    this.#replyChannel = `${prefix}:reply:${instanceId}`;
    this.#requestChannel = `${prefix}:control:${instanceId}`;
    subscriber.on("message", (channel: string, text: string) => void this.#onMessage(channel, text));
    this.#ready = subscriber.subscribe(this.#replyChannel, this.#requestChannel);
  }

  /** A fencing token for a worker of this instance running `turnId`: requests for its turn find this instance in it. */
  fenceFor(turnId: string): string {
    return `${turnId}:${this.instanceId}:${crypto.randomUUID()}`;
  }

  ready(): Promise<unknown> {
    return this.#ready;
  }

  /** Serves a conversation's requests while its turn runs here; the returned function stops (only this handler). */
  async serve(
    channel: string,
    handler: (request: ControlRequest) => Promise<ControlReply>,
  ): Promise<() => Promise<void>> {
    this.#handlers.set(channel, handler);
    await this.#ready;
    return async () => {
      // A newer attempt of the same turn on this instance may serve the channel now: leave it.
      if (this.#handlers.get(channel) === handler) this.#handlers.delete(channel);
    };
  }

  /**
   * Asks the instance running the turn (the one its run lock `runKey` names); `undefined` when no
   * instance runs it now, or it does not answer in time.
   */
  async request(
    channel: string,
    runKey: string,
    request: ControlRequest,
    timeoutMs: number,
  ): Promise<ControlReply | undefined> {
    await this.#ready;
    const holder = await this.command.get(runKey);
    if (holder === null) return undefined;
    // A worker of an earlier version (its token names no instance) still listens on the conversation's channel.
    const instance = instanceOf(holder);
    const reply = await this.ask(instance, channel, request, timeoutMs);
    return reply === "unserved" ? undefined : reply;
  }

  /**
   * Asks instance `instance` (undefined: whoever listens on `channel` itself) to handle `request`
   * with its handler for `channel`. "unserved": nobody received it, or the instance serves no such
   * channel (so nothing was done); undefined: it received the request but did not answer in time.
   */
  async ask(
    instance: string | undefined,
    channel: string,
    request: ControlRequest,
    timeoutMs: number,
  ): Promise<ControlReply | "unserved" | undefined> {
    await this.#ready;
    const target = instance === undefined ? channel : `${this.prefix}:control:${instance}`;
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
    const envelope: Envelope = { reqId, replyTo: this.#replyChannel, channel, request };
    const receivers = await this.command.publish(target, JSON.stringify(envelope));
    if (receivers === 0) {
      this.#pending.get(reqId)?.(NOT_SERVED);
      return "unserved";
    }
    const reply = await answer;
    return reply && reply.ok === false && reply.status === 0 ? "unserved" : reply;
  }

  close(): void {
    for (const resolve of this.#pending.values()) resolve(NOT_SERVED);
    this.#handlers.clear();
  }

  async #onMessage(channel: string, text: string): Promise<void> {
    try {
      if (channel === this.#replyChannel) {
        const { reqId, reply } = JSON.parse(text) as { reqId: string; reply: ControlReply };
        this.#pending.get(reqId)?.(reply);
        return;
      }
      if (channel !== this.#requestChannel) return;
      const envelope = JSON.parse(text) as Envelope;
      if (!envelope.replyTo.startsWith(`${this.prefix}:reply:`)) return;
      // No turn of that conversation runs here (it ended, or left): the asker is told at once.
      const handler = this.#handlers.get(envelope.channel);
      const reply = handler ? await handler(envelope.request) : NOT_SERVED;
      await this.command.publish(envelope.replyTo, JSON.stringify({ reqId: envelope.reqId, reply }));
    } catch (error) {
      this.onError(error);
    }
  }
}
