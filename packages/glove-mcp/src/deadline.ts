import { McpTimeoutError } from "./errors.js";

/**
 * One time budget for connecting, combined with the caller's signal. `signal` aborts with an
 * `McpTimeoutError` when the budget runs out, or with the caller's reason when they abort.
 */
export interface Deadline {
  readonly signal: AbortSignal;
  /** Settles like `promise`, or rejects with the abort reason as soon as the deadline fires. */
  race<T>(promise: Promise<T>): Promise<T>;
  dispose(): void;
}

export function startDeadline(timeoutMs: number, what: string, outer?: AbortSignal): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(
    () =>
      controller.abort(
        new McpTimeoutError(
          `${what} did not complete within ${timeoutMs} ms. Check that the server is up and speaks MCP at that URL, or raise connectTimeoutMs.`,
          timeoutMs,
        ),
      ),
    timeoutMs,
  );
  const onOuterAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onOuterAbort();
  else outer?.addEventListener("abort", onOuterAbort, { once: true });
  const signal = controller.signal;
  return {
    signal,
    race<T>(promise: Promise<T>): Promise<T> {
      if (signal.aborted) {
        promise.catch(() => undefined);
        return Promise.reject(signal.reason as Error);
      }
      return new Promise<T>((resolve, reject) => {
        const onAbort = () => reject(signal.reason as Error);
        signal.addEventListener("abort", onAbort, { once: true });
        promise.then(
          (value) => {
            signal.removeEventListener("abort", onAbort);
            resolve(value);
          },
          (error: unknown) => {
            signal.removeEventListener("abort", onAbort);
            reject(error as Error);
          },
        );
      });
    },
    dispose() {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onOuterAbort);
    },
  };
}
