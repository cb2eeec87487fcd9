import type { GloveAction } from "../types/actions.js";
import type { GloveState } from "../types/state.js";
import type { TimelineEntry } from "../types/timeline.js";
import { FrameBatcher, type FrameScheduler } from "./frame-batcher.js";
import { initialState } from "./initial-state.js";
import { reduce } from "./reducer.js";
import { timelineSelector } from "./timeline.js";

/** Options of GloveStore: how text updates are batched before listeners hear about them. */
export interface GloveStoreOptions {
  /** How text updates are batched (default: one per animation frame). */
  scheduler?: FrameScheduler | undefined;
}

type Listener = () => void;

/**
 * The external store `useGlove` reads with `useSyncExternalStore`. Every action is reduced at
 * once (so sessions always see the latest state through `current`), but listeners hear about
 * text deltas at most once per frame; any other action publishes immediately, text included, so
 * order is never lost. The published snapshot only changes when listeners are told.
 */
export class GloveStore {
  #state: GloveState;
  #published: GloveState;
  readonly #serverSnapshot: GloveState;
  readonly #listeners = new Set<Listener>();
  readonly #batcher: FrameBatcher;
  readonly #timeline = timelineSelector();

  constructor(initial: GloveState = initialState(), options: GloveStoreOptions = {}) {
    this.#state = initial;
    this.#published = initial;
    this.#serverSnapshot = initial;
    this.#batcher = new FrameBatcher(() => this.#publish(), options.scheduler);
  }

  /** The latest state, including text not yet published. */
  get current(): GloveState {
    return this.#state;
  }

  /** What React renders (stable between notifications). */
  readonly getSnapshot = (): GloveState => this.#published;

  /** The state the server rendered with: the initial one, so hydration matches. */
  readonly getServerSnapshot = (): GloveState => this.#serverSnapshot;

  readonly subscribe = (listener: Listener): (() => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  /** The transcript of the published state (memoised: streaming text does not rebuild it). */
  timeline(state: GloveState = this.#published): TimelineEntry[] {
    return this.#timeline(state);
  }

  dispatch(action: GloveAction): void {
    const next = reduce(this.#state, action);
    if (next === this.#state) return;
    this.#state = next;
    if (action.type === "text_delta") this.#batcher.request();
    else this.#publish();
  }

  /** Publishes pending text now (e.g. before a test reads the snapshot). */
  flush(): void {
    if (this.#batcher.scheduled || this.#published !== this.#state) this.#publish();
  }

  /** Stops a scheduled flush; the store stays readable. */
  dispose(): void {
    this.#batcher.cancel();
  }

  #publish(): void {
    this.#batcher.cancel();
    if (this.#published === this.#state) return;
    this.#published = this.#state;
    for (const listener of [...this.#listeners]) listener();
  }
}
