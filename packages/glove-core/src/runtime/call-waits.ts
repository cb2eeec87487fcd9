import type {
  CallWaits,
  DisplayManagerAdapter,
  SlotPush,
  StoreAdapter,
  StoredWait,
  StoredWaitKind,
  WaitOutcome,
} from "../types/index.js";
import { DisplaySlotClosedError, DisplaySlotRejectedError, GloveError } from "../errors.js";

/** A store that keeps questions: all three wait methods. */
export type WaitStore = StoreAdapter & Required<Pick<StoreAdapter, "addWait" | "settleWait" | "getWaits">>;

/** Whether the store keeps questions (durable human-in-the-loop). */
export function storeKeepsWaits(store: StoreAdapter | undefined): store is WaitStore {
  return (
    typeof store?.addWait === "function" &&
    typeof store.settleWait === "function" &&
    typeof store.getWaits === "function"
  );
}

/**
 * The stored waits of one tool call. Each question or step takes the next position; when the call
 * runs again (a turn resumed after a restart) the recorded waits are met at the same positions:
 * an answered question or a recorded step returns its stored outcome at once, a pending question
 * is shown again under its old id, and only what was never reached is new. Answers are written to
 * the store before the waiter wakes, and the first answer wins, also across processes.
 */
export class StoredCallWaits implements CallWaits {
  #position = 0;
  #base = 0;
  #recorded: Promise<StoredWait[]> | undefined;

  constructor(
    private readonly store: WaitStore,
    private readonly call: { id: string; toolName: string },
    private readonly signal?: AbortSignal,
  ) {}

  /** The tool itself starts here: its waits come after the permission prompt's. */
  markToolStart(): void {
    this.#base = this.#position;
  }

  /** A retry of the tool meets the same waits again. */
  beginAttempt(): void {
    this.#position = this.#base;
  }

  async question<O>(
    display: DisplayManagerAdapter,
    slot: SlotPush<unknown>,
    onShown?: (slotId: string) => void,
  ): Promise<O> {
    const { position, recorded } = await this.#next("question");
    if (recorded && recorded.status !== "pending") return settledOutcome<O>(recorded);
    const id = recorded?.id ?? crypto.randomUUID();
    const renderer = slot.renderer ?? this.call.toolName;
    if (!recorded) {
      await this.store.addWait({
        id,
        kind: "question",
        toolCallId: this.call.id,
        toolName: this.call.toolName,
        position,
        renderer,
        input: slot.input ?? null,
        ...(slot.displayStrategy !== undefined ? { displayStrategy: slot.displayStrategy } : {}),
        status: "pending",
        created_at: new Date().toISOString(),
        settled_at: null,
      });
    }
    const answer = display.pushAndWait<unknown, O>({ ...slot, renderer, id });
    onShown?.(id);
    return this.#recordAnswer(id, answer);
  }

  async step<T>(name: string, work: () => T | Promise<T>): Promise<T> {
    const { position, recorded } = await this.#next("step", name);
    if (recorded) return recorded.value as T;
    const value = await work();
    const now = new Date().toISOString();
    await this.store.addWait({
      id: crypto.randomUUID(),
      kind: "step",
      toolCallId: this.call.id,
      toolName: this.call.toolName,
      position,
      renderer: name,
      input: null,
      status: "resolved",
      value: value === undefined ? null : value,
      created_at: now,
      settled_at: now,
    });
    return value;
  }

  async #next(kind: StoredWaitKind, name?: string): Promise<{ position: number; recorded: StoredWait | undefined }> {
    const position = this.#position++;
    this.#recorded ??= this.store.getWaits({ toolCallId: this.call.id });
    const recorded = (await this.#recorded).find((wait) => wait.position === position);
    if (recorded && (recorded.kind !== kind || (kind === "step" && recorded.renderer !== name))) {
      throw new GloveError(
        `Tool "${this.call.toolName}" ran again to resume call ${this.call.id}, but its wait #${position} is now a ${kind}${name ? ` "${name}"` : ""} where a ${recorded.kind} "${recorded.renderer}" was recorded. A durable tool must ask its questions and run its steps in the same order every time; otherwise fold it with durable: false.`,
        { code: "GLOVE_REPLAY_DIVERGED" },
      );
    }
    return { position, recorded };
  }

  /**
   * The answer, written to the store before the tool sees it; when another process answered
   * first, the tool gets that answer. Recorded from the display's promise (not by wrapping its
   * resolver), so an answer given while the slot is being shown — a listener that answers at once —
   * is stored too. A rejection is recorded as such; a slot taken down without an answer
   * (shutdown, a closed process) stays pending, unless the request was aborted: then nobody will
   * resume it. An answer the display refused (its schema) reaches the tool as an error, unrecorded.
   */
  async #recordAnswer<O>(id: string, answer: Promise<O>): Promise<O> {
    let value: O;
    try {
      value = await answer;
    } catch (reason) {
      const closed = DisplaySlotClosedError.isInstance(reason);
      if (!(closed ? this.signal?.aborted === true : DisplaySlotRejectedError.isInstance(reason))) throw reason;
      const detail = DisplaySlotRejectedError.isInstance(reason) ? reason.reason : describe(reason);
      await this.#settle(id, {
        status: closed ? "cancelled" : "rejected",
        value: detail === undefined ? null : detail,
      }).catch(() => undefined);
      throw reason;
    }
    const winner = await this.#settle(id, { status: "resolved", value: value === undefined ? null : value });
    return winner ? settledOutcome<O>(winner) : value;
  }

  async #settle(id: string, outcome: Omit<WaitOutcome, "settled_at">): Promise<StoredWait | undefined> {
    const { wait } = await this.store.settleWait(id, {
      ...outcome,
      settled_at: new Date().toISOString(),
    } as WaitOutcome);
    return wait;
  }
}

/** The outcome a settled wait stands for: its answer, or the error its waiter got. */
function settledOutcome<O>(wait: StoredWait): O {
  if (wait.status === "resolved") return wait.value as O;
  if (wait.status === "rejected") throw new DisplaySlotRejectedError(wait.id, wait.value);
  throw new DisplaySlotClosedError(wait.id, "the question was cancelled");
}

function describe(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
