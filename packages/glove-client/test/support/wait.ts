import type { GloveState, GloveStore } from "glove-client";
import { PROMPT_WAIT_MS } from "../../../../test-support/timeouts.js";

/** Resolves with the store's latest state once `predicate` holds (polls; sessions run asynchronously). */
export async function waitForState(
  store: GloveStore,
  predicate: (state: GloveState) => boolean,
  timeoutMs = PROMPT_WAIT_MS,
): Promise<GloveState> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = store.current;
    if (predicate(state)) return state;
    if (Date.now() > deadline) {
      throw new Error(
        `timed out waiting for the state; last: ${JSON.stringify({ busy: state.busy, connection: state.connection, messages: state.messages.length, slots: state.slots.map((s) => [s.renderer, s.status]), pending: state.pending, error: state.error, text: state.streamingText })}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A Web Storage stand-in. */
export class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

/** A frame scheduler that runs on a zero-delay timer (fast tests). */
export const immediateFrames = (callback: () => void) => {
  const timer = setTimeout(callback, 0);
  return () => clearTimeout(timer);
};
