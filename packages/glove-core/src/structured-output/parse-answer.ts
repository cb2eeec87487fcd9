import type { OutputIssue } from "./structured-output-error.js";
import type { OutputSchema } from "./types.js";

/** The outcome of checking one answer against the output schema. */
export type AnswerCheck =
  { ok: true; value: unknown } | { ok: false; reason: "invalid_json" | "schema_mismatch"; issues: OutputIssue[] };

const FENCED = /```[A-Za-z0-9_-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```/;

/**
 * The JSON value in an answer. Native JSON modes send bare JSON; models following the
 * instruction fallback sometimes wrap it in a code fence or a sentence, so those are
 * unwrapped too: the whole text, else the first fenced block, else the span from the first
 * `{`/`[` to the last `}`/`]`. Returns undefined when none of them parses.
 */
export function extractJson(text: string): { value: unknown } | undefined {
  const candidates = [text.trim()];
  const fenced = FENCED.exec(text);
  if (fenced) candidates.push(fenced[1]!.trim());
  const start = text.search(/[[{]/);
  const end = Math.max(text.lastIndexOf("}"), text.lastIndexOf("]"));
  if (start >= 0 && end > start) candidates.push(text.slice(start, end + 1));
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      return { value: JSON.parse(candidate) as unknown };
    } catch {
      // try the next reading
    }
  }
  return undefined;
}

/** Parses an answer's text and validates it with the schema (zod's output: defaults and transforms applied). */
export function checkAnswer(text: string, schema: OutputSchema): AnswerCheck {
  const json = extractJson(text);
  if (!json) {
    const what = text.trim() ? "The answer is not valid JSON" : "The answer is empty";
    return {
      ok: false,
      reason: "invalid_json",
      issues: [{ path: [], message: `${what}; send only a JSON value.`, code: "invalid_json" }],
    };
  }
  const parsed = schema.safeParse(json.value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = parsed.error.issues.map((issue) => ({
    path: issue.path.map((key) => (typeof key === "number" ? key : String(key))),
    message: issue.message,
    code: String(issue.code),
  }));
  return { ok: false, reason: "schema_mismatch", issues };
}
