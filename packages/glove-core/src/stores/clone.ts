/**
 * Deep copy for the plain JSON-like data stores hold (messages, tasks, inbox
 * items). Arrays and plain objects are copied directly, several times faster than
 * `structuredClone` on small objects; anything else (Date, Map, typed arrays…)
 * goes through `structuredClone` so it is still copied exactly. Cycles are not
 * expected in conversation data; they fall back to `structuredClone` too.
 */
export function clonePlain<T>(value: T): T {
  return cloneValue(value, 0) as T;
}

const MAX_DEPTH = 64;

function cloneValue(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== "object") return value;
  if (depth > MAX_DEPTH) return structuredClone(value);
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneValue(value[i], depth + 1);
    return out;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    // structuredClone keeps undefined-valued keys; so do we, for identical results.
    if (key === "__proto__") {
      // An own "__proto__" key (JSON.parse makes them) stays a key: assigning it would set the prototype.
      Object.defineProperty(out, key, {
        value: cloneValue(v, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      out[key] = cloneValue(v, depth + 1);
    }
  }
  return out;
}
