import { countEvent, NO_STATS } from "../../conversations/stats.js";
import type { ConversationStats } from "../../storage/types.js";
import type { ConversationKeys } from "./keys.js";
import type { ScaleRedis } from "./scripts.js";

export interface EmitLimits {
  streamMaxLen: number;
  streamMaxAgeMs: number;
}

/**
 * Writes one running turn's events to the conversation's stream, in order, without waiting for each
 * (commands on one connection keep their order; ioredis queues them while Redis is away and sends
 * them when it is back). A refusal means another worker took the turn over: `onFenced` fires once
 * and later events are dropped.
 */
export class TurnEmitter {
  #tail: Promise<unknown> = Promise.resolve();
  #localSeq = 0;
  #fenced = false;
  /** The conversation's totals, counted in event order; set from the state hash before the turn's first event. */
  stats: ConversationStats = NO_STATS;

  constructor(
    private readonly redis: ScaleRedis,
    private readonly keys: ConversationKeys,
    /** The worker's fencing token, or "" for events outside a turn. */
    private readonly token: string,
    /** Above every id the catalog knows was handed out (used when Redis lost the counter). */
    private readonly base: number,
    private readonly limits: EmitLimits,
    private readonly onFenced: () => void,
    private readonly onError: (error: unknown) => void,
    /** A written event, for this instance's own readers (they need not wait for the stream read). */
    private readonly onWritten: (id: number, type: string, json: string) => void = () => undefined,
  ) {}

  get fenced(): boolean {
    return this.#fenced;
  }

  /** Queues an event; `extra` feeds the script's state update (see scripts.ts). */
  emit(type: string, data: unknown, extra: [string?, string?, string?] = []): Promise<number> {
    return this.#send(type, data, extra, false);
  }

  /**
   * The worker's `turn_end`: once written, the turn's abort flag and attempt count go in the same
   * script call (they used to be two more commands after its reply). A "done" turn leaves no
   * question waiting: the script marks that for the next message's admission.
   */
  end(data: { turnId: string; status: string }): Promise<number> {
    return this.#send("turn_end", data, [data.turnId, data.status], true);
  }

  #send(type: string, data: unknown, extra: [string?, string?, string?], ending: boolean): Promise<number> {
    if (this.#fenced) return Promise.resolve(-1);
    const k = this.keys;
    const json = JSON.stringify(data ?? null);
    const args = [
      k.seq,
      k.events,
      k.state,
      k.run,
      k.streaming,
      k.slots,
      k.slotStatus,
      k.turn,
      ...(ending ? [k.abort, k.attempts] : []),
      this.token,
      ++this.#localSeq,
      type,
      json,
      this.limits.streamMaxLen,
      this.base,
      this.limits.streamMaxAgeMs,
      extra[0] ?? "",
      extra[1] ?? "",
      extra[2] ?? "",
    ];
    const sent = (ending ? this.redis.gloveEmitEnd(...args) : this.redis.gloveEmit(...args)).then((id) => {
      if (id > 0) this.onWritten(id, type, json);
      if (id === -1 && !this.#fenced) {
        this.#fenced = true;
        this.onFenced();
      }
      return id;
    });
    this.#tail = sent.catch((error: unknown) => this.onError(error));
    return sent;
  }

  /** An event of glove-core's bus, with the state its type changes. */
  record(type: string, data: unknown): void {
    const before = this.stats;
    this.stats = countEvent(before, type, data);
    const { turns, tokens_in, tokens_out } = this.stats;
    const extra: [string?, string?, string?] =
      type === "text_delta"
        ? [String((data as { text?: unknown }).text ?? "")]
        : this.stats !== before
          ? [String(turns), String(tokens_in), String(tokens_out)]
          : [];
    void this.emit(type, data, extra).catch(() => undefined);
  }

  /** Resolves once every queued event was written (or failed). */
  flush(): Promise<unknown> {
    return this.#tail;
  }
}
