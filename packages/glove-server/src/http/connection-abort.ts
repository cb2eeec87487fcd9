/**
 * The abort signal of one node exchange, made only when something reads it. Most exchanges are a
 * JSON request and answer whose handler never looks at `request.signal`; they then cost no
 * AbortController. An exchange that ended unfinished before anyone read the signal hands out one
 * already aborted, which is all a reader could have observed by then.
 */
export class ConnectionAbort {
  #controller: AbortController | undefined;
  #aborted = false;

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort();
    }
    return this.#controller.signal;
  }

  /** Whether the exchange ended unfinished, without making a signal to tell. */
  get aborted(): boolean {
    return this.#aborted;
  }

  abort(): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#controller?.abort();
  }
}
