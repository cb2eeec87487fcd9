import type { StoreAdapter } from "glove-core";

/**
 * Where a process dies: at its `at`-th store call (0-based). `applied`: the call reached the store
 * before the process died (a write that landed, its answer never seen); else it never did.
 */
export interface Crash {
  at: number;
  applied: boolean;
}

export interface CrashableStore {
  store: StoreAdapter;
  /** Settles when the process is dead: from then on every store call hangs forever. */
  died: Promise<void>;
  /** The methods called, in order: the process's await points on the store. */
  calls: string[];
}

/** Hooks for the test: a call that reaches the store, and the crash (after the call, when it was applied). */
export interface CrashHooks {
  forwarded?(method: string, args: unknown[]): void;
  crashed?(method: string, args: unknown[]): void;
}

const never = new Promise<never>(() => undefined);

/**
 * `under` as one process sees it: each call goes through, until the crash point, where the process
 * dies. A dead process's calls never return (its code is frozen at its awaits, as if the process
 * were gone), so nothing it does after the crash reaches the store.
 */
export function crashable(under: StoreAdapter, crash: Crash | undefined, hooks: CrashHooks = {}): CrashableStore {
  let dead = false;
  let die!: () => void;
  const died = new Promise<void>((resolve) => (die = resolve));
  const calls: string[] = [];
  const store = new Proxy(under, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== "function" || key === "constructor") return value;
      return (...args: unknown[]) => {
        if (dead) return never;
        const method = String(key);
        const index = calls.length;
        calls.push(method);
        const crashHere = crash?.at === index;
        if (crashHere && !crash.applied) {
          dead = true;
          hooks.crashed?.(method, args);
          die();
          return never;
        }
        hooks.forwarded?.(method, args);
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (crashHere) {
          dead = true;
          hooks.crashed?.(method, args);
          die();
          // The write lands; its answer is never seen (a rejection would be unhandled: swallow it).
          void Promise.resolve(result).catch(() => undefined);
          return never;
        }
        return result;
      };
    },
  });
  return { store, died, calls };
}
