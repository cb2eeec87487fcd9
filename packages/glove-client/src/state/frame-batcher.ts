/** Schedules work for the next frame; returns a cancel function. */
export type FrameScheduler = (callback: () => void) => () => void;

/** Without requestAnimationFrame (SSR, workers, tests in Node) a frame is ~16 ms. */
const FALLBACK_FRAME_MS = 16;

/**
 * The default scheduler: requestAnimationFrame where there is one (looked up at call time, never
 * at import, so importing on a server is safe), else a timer of about one frame.
 */
export const nextFrame: FrameScheduler = (callback) => {
  const raf = globalThis.requestAnimationFrame;
  if (typeof raf === "function") {
    const handle = raf.call(globalThis, () => callback());
    return () => globalThis.cancelAnimationFrame?.call(globalThis, handle);
  }
  const timer = setTimeout(callback, FALLBACK_FRAME_MS);
  return () => clearTimeout(timer);
};

/**
 * Runs `flush` at most once per frame however often `request` is called: streaming text arrives a
 * token at a time, and one React update per token would re-render the transcript hundreds of
 * times a second.
 */
export class FrameBatcher {
  #cancel: (() => void) | undefined;

  constructor(
    private readonly flush: () => void,
    private readonly schedule: FrameScheduler = nextFrame,
  ) {}

  get scheduled(): boolean {
    return this.#cancel !== undefined;
  }

  request(): void {
    if (this.#cancel) return;
    this.#cancel = this.schedule(() => {
      this.#cancel = undefined;
      this.flush();
    });
  }

  /** Drops a scheduled flush (the caller flushes now, or is going away). */
  cancel(): void {
    this.#cancel?.();
    this.#cancel = undefined;
  }
}
