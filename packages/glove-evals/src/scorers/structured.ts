import type { z } from "zod";
import type { ItemRun } from "../run/run-types.js";
import { matchesSubset } from "./deep-match.js";
import type { Scorer } from "./scorer.js";

/**
 * Checks the answer as structured output: 0 when it is not JSON or the schema rejects it; then,
 * when the item has an `expected.output` object, the share of its fields the answer matches
 * (nested fields compared as subsets), else 1.
 */
export function schemaMatch(schema: z.ZodType, options: { name?: string } = {}): Scorer {
  return {
    name: options.name ?? "schema_match",
    score(run: ItemRun) {
      if (run.structured === undefined) return { score: 0, reason: "the answer is not JSON" };
      const parsed = schema.safeParse(run.structured);
      if (!parsed.success) {
        return {
          score: 0,
          reason: parsed.error.issues.map((i) => `${i.path.join(".") || "answer"}: ${i.message}`).join("; "),
        };
      }
      const expected = run.item.expected?.output;
      if (expected === null || typeof expected !== "object" || Array.isArray(expected)) {
        return { score: 1, reason: "matches the schema" };
      }
      const entries = Object.entries(expected as Record<string, unknown>);
      const value = parsed.data as Record<string, unknown>;
      const wrong = entries.filter(([key, v]) => !matchesSubset(value?.[key], v)).map(([key]) => key);
      return {
        score: entries.length ? (entries.length - wrong.length) / entries.length : 1,
        reason: wrong.length ? `fields differ: ${wrong.join(", ")}` : "matches the schema and the expected fields",
      };
    },
  };
}
