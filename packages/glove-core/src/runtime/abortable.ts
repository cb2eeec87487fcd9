import { AbortError } from "../errors.js";

/**
 * Settles with `work`, or rejects with AbortError as soon as the signal fires,
 * whichever comes first. `onAbort` runs at that moment (e.g. to take a prompt
 * down). Work that settles after the abort is silenced: nobody listens anymore.
 */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal | undefined, onAbort?: () => void): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) {
    work.catch(() => undefined);
    onAbort?.();
    return Promise.reject(new AbortError());
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      work.catch(() => undefined);
      onAbort?.();
      reject(new AbortError());
    };
    signal.addEventListener("abort", abort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", abort);
        reject(error);
      },
    );
  });
}

/** Resolves true after `ms`, or false as soon as the signal fires. */
export function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
