import type { ExpectedToolCall } from "../dataset/item-schema.js";
import { EvalError } from "../errors.js";
import type { ItemRun, ToolCallRecord } from "../run/run-types.js";
import { matchesSubset } from "./deep-match.js";
import type { Scorer } from "./scorer.js";

export interface TrajectoryOptions {
  name?: string;
  /** The expected calls. Default: the item's `expected.toolCalls`. */
  expected?: ExpectedToolCall[];
  /**
   * "in-order" (default): the expected calls appear in this order, other calls may come between;
   * "exact": exactly these calls in this order, nothing else; "set": each appears, any order.
   */
  order?: "in-order" | "exact" | "set";
  /** Tools not to count as calls (e.g. "glove_update_tasks"). */
  ignore?: string[];
}

/**
 * The share of expected tool calls the agent made as asked: same name, and the expected `args` a
 * subset of the call's input. With "exact", any extra call or a different count scores 0.
 */
export function toolTrajectory(options: TrajectoryOptions = {}): Scorer {
  const name = options.name ?? "tool_trajectory";
  const order = options.order ?? "in-order";
  return {
    name,
    score(run: ItemRun) {
      const expected = options.expected ?? run.item.expected?.toolCalls;
      if (!expected) {
        throw new EvalError("GLOVE_EVAL_SCORER", `${name}: item "${run.item.id}" has no expected.toolCalls.`);
      }
      const calls = run.toolCalls.filter((c) => !options.ignore?.includes(c.name));
      const made = calls.map((c) => c.name).join(", ") || "none";
      if (!expected.length) {
        return calls.length
          ? { score: 0, reason: `expected no tool call, got ${made}` }
          : { score: 1, reason: "no tool call, as expected" };
      }
      const matches = (call: ToolCallRecord, want: ExpectedToolCall) =>
        call.name === want.name && (want.args === undefined || matchesSubset(call.args, want.args));
      let found = 0;
      if (order === "set") {
        const free = [...calls];
        for (const want of expected) {
          const at = free.findIndex((c) => matches(c, want));
          if (at >= 0) {
            free.splice(at, 1);
            found++;
          }
        }
      } else if (order === "exact") {
        found =
          calls.length === expected.length && expected.every((want, i) => matches(calls[i]!, want))
            ? expected.length
            : 0;
      } else {
        let from = 0;
        for (const want of expected) {
          const at = calls.findIndex((c, i) => i >= from && matches(c, want));
          if (at >= 0) {
            found++;
            from = at + 1;
          }
        }
      }
      const wanted = expected.map((e) => e.name).join(", ");
      return {
        score: found / expected.length,
        reason:
          found === expected.length ? `called ${wanted} (${order})` : `expected ${wanted} (${order}); called ${made}`,
      };
    },
  };
}
