import type { IGloveRunnable, ModelCallEvent, SubscriberEventArgs } from "glove-core";
import type { TurnTrace, TurnTraceStore } from "../storage/inspect/types.js";
import { previousCall } from "./request-log.js";
import { endContinuedCall } from "./stored-traces.js";
import { TurnTraceRecorder, type TracedTurnEnd } from "./turn-trace-recorder.js";

/**
 * The trace of a conversation's running turn: a recorder made on the turn's first event (a turn
 * that never showed — an inbox delivery that claimed nothing, a refused answer — leaves none) and
 * ended with the turn. Without a trace store (a custom store factory) it does nothing.
 */
export class TurnTracing {
  #current: { turnId: string; recorder: TurnTraceRecorder } | undefined;
  /** The last ended turn's save, so closing waits for it (a turn suspended just before). */
  #ending: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: TurnTraceStore | undefined,
    private readonly conversationId: string,
    private readonly model: () => string | undefined,
    private readonly log: (message: string, error: unknown) => void,
    /** A trace stored for the turn by a worker that ran it before (scale mode): continued. */
    private readonly continues?: TurnTrace | undefined,
  ) {}

  /** An event of the Glove while `turnId` runs (undefined: no turn holds the conversation). */
  observe(turnId: string | undefined, ...event: SubscriberEventArgs): void {
    if (turnId === undefined || !this.store) return;
    this.#recorder(turnId).observe(...event);
    const [type, data] = event;
    // A call an earlier turn left waiting goes on here: that turn's trace stops showing it running.
    if (type === "turn_resumed" && data.agentPath === undefined)
      void endContinuedCall(this.store, this.conversationId, turnId, data.call_id).catch((error: unknown) =>
        this.log(`[glove-server] could not end the waiting call ${data.call_id} in an earlier trace`, error),
      );
  }

  /**
   * Records the model calls of `glove` (request inspector, time to first token, attempts) into
   * the trace of the turn `runningTurn` names when each call is made; returns the removal. Does
   * nothing without a trace store.
   */
  attach(glove: Pick<IGloveRunnable, "observeModelCalls">, runningTurn: () => string | undefined): () => void {
    if (!this.store || !glove.observeModelCalls) return () => undefined;
    return glove.observeModelCalls((event) => this.observeCall(runningTurn(), event));
  }

  /** A model call event of the Glove while `turnId` runs (undefined: no turn holds the conversation). */
  observeCall(turnId: string | undefined, event: ModelCallEvent): void {
    if (turnId === undefined || !this.store) return;
    this.#recorder(turnId).observeCall(event);
  }

  /** The turn ended: its trace (made now when it had no event) is saved with how it ended. */
  end(turnId: string, how: TracedTurnEnd, errorType?: string): Promise<void> {
    if (!this.store) return Promise.resolve();
    const recorder = this.#recorder(turnId);
    this.#current = undefined;
    this.#ending = recorder.end(how, errorType);
    return this.#ending;
  }

  /** Saves what changed and stops recording: the conversation leaves memory, or its turn goes on elsewhere. */
  async close(): Promise<void> {
    const current = this.#current;
    this.#current = undefined;
    await current?.recorder.stop();
    await this.#ending;
  }

  #recorder(turnId: string): TurnTraceRecorder {
    if (this.#current?.turnId === turnId) return this.#current.recorder;
    this.#current?.recorder.discard();
    const continues = this.continues?.turnId === turnId ? this.continues : undefined;
    const recorder = new TurnTraceRecorder({
      store: this.store!,
      conversationId: this.conversationId,
      turnId,
      model: this.model(),
      log: this.log,
      continues,
      previousCall: () => previousCall(this.store!, this.conversationId, turnId),
    });
    this.#current = { turnId, recorder };
    return recorder;
  }
}
