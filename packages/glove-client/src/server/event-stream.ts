import type { ConnectionState } from "../types/state.js";
import type { ErrorInfo } from "../types/wire.js";
import { ServerRequestError } from "../errors.js";
import { toErrorInfo } from "../util/error-info.js";
import { backoffDelay, type BackoffOptions } from "./backoff.js";
import { ServerApi } from "./server-api.js";
import { readSse, type SseFrame } from "./sse-reader.js";

export interface StreamTuning {
  backoff?: BackoffOptions | undefined;
  /** Failed attempts in a row after which the state says `offline` (retries go on). Default 3. */
  offlineAfter?: number | undefined;
  /** Reconnect when nothing (not even a heartbeat) arrived for this long. Default 45 s (server heartbeats: 15 s). */
  staleAfterMs?: number | undefined;
}

export interface EventStreamOptions extends StreamTuning {
  api: ServerApi;
  conversationId: string;
  /** The last event id seen: sent as Last-Event-ID, so the server resumes without a gap or a duplicate. */
  lastEventId(): number | undefined;
  onFrame(frame: SseFrame): void;
  onState(state: ConnectionState, error?: ErrorInfo | null): void;
}

/** Answers that will not change by retrying: wrong credentials, someone else's or a deleted conversation. */
const FATAL = new Set([400, 401, 403, 404, 405, 410]);

/**
 * Keeps one conversation's event stream open: connects with Last-Event-ID, reads frames, and after
 * a lost connection reconnects with exponential backoff, reporting `connecting` → `open` →
 * `reconnecting` (→ `offline` after several failures in a row, still retrying). A refusal that
 * retrying cannot fix stops it with `offline` and the server's error.
 */
export class EventStream {
  #stopped = false;
  #attempt: AbortController | undefined;
  #wake: (() => void) | undefined;
  #removeOnline: (() => void) | undefined;

  constructor(private readonly options: EventStreamOptions) {}

  start(): void {
    const online = () => this.reconnectNow();
    const target = globalThis as {
      addEventListener?: (type: string, fn: () => void) => void;
      removeEventListener?: (type: string, fn: () => void) => void;
    };
    if (typeof target.addEventListener === "function" && typeof globalThis.window !== "undefined") {
      target.addEventListener("online", online);
      this.#removeOnline = () => target.removeEventListener?.("online", online);
    }
    void this.#run();
  }

  stop(): void {
    this.#stopped = true;
    this.#removeOnline?.();
    this.#attempt?.abort();
    this.#wake?.();
  }

  /** Skips the current backoff wait (the browser says it is online again). */
  reconnectNow(): void {
    this.#wake?.();
  }

  async #run(): Promise<void> {
    const { offlineAfter = 3 } = this.options;
    let failures = 0;
    let opened = false;
    while (!this.#stopped) {
      this.options.onState(
        !opened && failures === 0 ? "connecting" : failures >= offlineAfter ? "offline" : "reconnecting",
      );
      let received = false;
      try {
        await this.#connect({
          // The server answered with an event stream: the connection is up.
          open: () => {
            opened = true;
            this.options.onState("open");
          },
          // Bytes arrived (glove-server starts every stream with a `retry:` line): it really works.
          data: () => {
            received = true;
            failures = 0;
          },
        });
      } catch (error) {
        if (this.#stopped) return;
        if (ServerRequestError.isInstance(error) && FATAL.has(error.status)) {
          this.options.onState("offline", toErrorInfo(error));
          return;
        }
      }
      if (this.#stopped) return;
      // A stream that ended after delivering something is a normal drop: retry soon.
      failures = received ? 1 : failures + 1;
      this.options.onState(failures >= offlineAfter ? "offline" : "reconnecting");
      await this.#sleep(backoffDelay(failures, this.options.backoff));
    }
  }

  async #connect(on: { open(): void; data(): void }): Promise<void> {
    const controller = new AbortController();
    this.#attempt = controller;
    const staleAfter = this.options.staleAfterMs ?? 45_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const alive = () => {
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(new Error("no data from the server")), staleAfter);
    };
    try {
      alive();
      const response = await this.options.api.openEvents(
        this.options.conversationId,
        this.options.lastEventId(),
        controller.signal,
      );
      if (!response.ok) {
        const body = await response.json().catch(() => undefined);
        throw ServerApi.errorOf(response.status, body);
      }
      if (!/^text\/event-stream\b/i.test(response.headers.get("content-type") ?? "") || !response.body) {
        await response.body?.cancel().catch(() => undefined);
        throw new ServerRequestError(
          response.status,
          "GLOVE_NOT_AN_EVENT_STREAM",
          `${this.options.api.base} did not answer with an event stream: is it a glove-server?`,
        );
      }
      on.open();
      await readSse(
        response.body,
        {
          chunk: () => {
            alive();
            on.data();
          },
          frame: (frame) => this.options.onFrame(frame),
        },
        controller.signal,
      );
    } finally {
      clearTimeout(timer);
      if (this.#attempt === controller) this.#attempt = undefined;
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#wake = done;
    });
  }
}
