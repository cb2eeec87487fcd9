import { EvalError } from "../errors.js";
import type { ItemRun } from "../run/run-types.js";
import type { Scorer } from "./scorer.js";

interface TextOptions {
  name?: string;
  /** Compare case-insensitively. Default false for exactMatch, true for contains. */
  ignoreCase?: boolean;
}

function expectedText(run: ItemRun, given: string | undefined, scorer: string): string {
  const expected = given ?? run.item.expected?.output;
  if (typeof expected !== "string") {
    throw new EvalError(
      "GLOVE_EVAL_SCORER",
      `${scorer}: item "${run.item.id}" has no expected.output text; add one or pass the expected text.`,
    );
  }
  return expected;
}

/** 1 when the answer equals the expected text (the item's `expected.output` unless given), trimmed. */
export function exactMatch(options: TextOptions & { expected?: string } = {}): Scorer {
  const name = options.name ?? "exact_match";
  return {
    name,
    score(run) {
      const fold = (s: string) => (options.ignoreCase ? s.trim().toLowerCase() : s.trim());
      const expected = expectedText(run, options.expected, name);
      const equal = fold(run.output) === fold(expected);
      return {
        score: equal ? 1 : 0,
        reason: equal ? "the answer matches" : `expected ${quote(expected)}, got ${quote(run.output)}`,
      };
    },
  };
}

/** The share of `needles` found in the answer (default: the item's `expected.output`), case-insensitive unless told. */
export function contains(needles?: string | string[], options: TextOptions = {}): Scorer {
  const name = options.name ?? "contains";
  return {
    name,
    score(run) {
      const list = needles === undefined ? [expectedText(run, undefined, name)] : [needles].flat();
      if (!list.length) throw new EvalError("GLOVE_EVAL_SCORER", `${name}: nothing to look for.`);
      const fold = (s: string) => (options.ignoreCase === false ? s : s.toLowerCase());
      const missing = list.filter((needle) => !fold(run.output).includes(fold(needle)));
      return {
        score: (list.length - missing.length) / list.length,
        reason: missing.length ? `missing ${missing.map((m) => quote(m)).join(", ")}` : "all found",
      };
    },
  };
}

/** 1 when the answer matches the regular expression. */
export function matchesRegex(pattern: RegExp, options: { name?: string } = {}): Scorer {
  return {
    name: options.name ?? "regex",
    score(run) {
      pattern.lastIndex = 0;
      const ok = pattern.test(run.output);
      return { score: ok ? 1 : 0, reason: ok ? `matches ${pattern}` : `does not match ${pattern}` };
    },
  };
}

export function quote(text: string, max = 80): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}
