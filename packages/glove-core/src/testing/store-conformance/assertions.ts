/** Thrown by a failing conformance case. */
export class StoreConformanceError extends Error {
  override readonly name = "StoreConformanceError";
}

// ── Assertions ──────────────────────────────────────────────────────────────────────────────

function describeValue(value: unknown): string {
  if (value === undefined) return "undefined (absent)";
  try {
    const json = JSON.stringify(value);
    return json.length > 300 ? `${json.slice(0, 300)}…` : json;
  } catch {
    return String(value);
  }
}

/**
 * Path of the first difference between two JSON-like values, or undefined when equal. A key whose
 * value is `undefined` counts as absent; `null`, `false` and `""` are values, not absence.
 */
function firstDifference(actual: unknown, expected: unknown, path: string): string | undefined {
  if (Object.is(actual, expected)) return undefined;
  if (typeof expected !== "object" || expected === null || typeof actual !== "object" || actual === null) {
    return `${path}: expected ${describeValue(expected)}, got ${describeValue(actual)}`;
  }
  if (Array.isArray(expected) !== Array.isArray(actual)) {
    return `${path}: expected ${Array.isArray(expected) ? "an array" : "an object"}, got ${describeValue(actual)}`;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const n = Math.min(expected.length, actual.length);
    for (let i = 0; i < n; i++) {
      const d = firstDifference(actual[i], expected[i], `${path}[${i}]`);
      if (d) return d;
    }
    if (expected.length !== actual.length) {
      return `${path}: expected ${expected.length} elements, got ${actual.length}`;
    }
    return undefined;
  }
  const a = actual as Record<string, unknown>;
  const e = expected as Record<string, unknown>;
  const keys = new Set([...Object.keys(e), ...Object.keys(a)]);
  for (const key of keys) {
    const d = firstDifference(a[key], e[key], `${path}.${key}`);
    if (d) return d;
  }
  return undefined;
}

export function assertEqual(actual: unknown, expected: unknown, what: string): void {
  const d = firstDifference(actual, expected, what);
  if (d) throw new StoreConformanceError(d);
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new StoreConformanceError(message);
}

export async function assertRejects(promise: Promise<unknown>, message: string): Promise<void> {
  let rejected = false;
  try {
    await promise;
  } catch {
    rejected = true;
  }
  assert(rejected, message);
}
