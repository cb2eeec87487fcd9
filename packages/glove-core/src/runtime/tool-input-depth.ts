/** Deeper tool input than this is refused: nobody's schema needs it, and copying or serialising it recursively would overflow the stack. */
export const MAX_TOOL_INPUT_DEPTH = 64;

/** Whether `value` nests objects/arrays deeper than `limit` (measured without recursion). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== "object") continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * The tool input as the runtime keeps it: as given, or — when nested beyond the limit — a short
 * string that the executor reports back to the model as unusable arguments (an error result the
 * model can act on), so nothing downstream ever walks the deep structure.
 */
export function boundedToolInput(input: unknown): unknown {
  if (!nestsDeeperThan(input, MAX_TOOL_INPUT_DEPTH)) return input;
  return `(arguments nested deeper than ${MAX_TOOL_INPUT_DEPTH} levels were dropped; send flatter arguments)`;
}
