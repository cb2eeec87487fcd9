import { GloveError } from "../errors.js";

/** One way the model's answer missed the schema; `path` is empty for the answer as a whole. */
export interface OutputIssue {
  path: Array<string | number>;
  message: string;
  /** zod's issue code, or "invalid_json" when the answer was not JSON at all. */
  code: string;
}

/** Why structured output failed: no JSON, JSON of the wrong shape, or a refusal (never repaired). */
export type StructuredOutputFailure = "invalid_json" | "schema_mismatch" | "refusal";

const CODE = "GLOVE_STRUCTURED_OUTPUT";

/**
 * The model's final answer did not parse against the request's output schema, also after the
 * repair turns. The conversation is intact (every message of the attempts is stored), so the
 * caller may simply ask again.
 */
export class StructuredOutputError extends GloveError {
  readonly reason: StructuredOutputFailure;
  /** The last answer's text, as the model sent it. */
  readonly rawText: string;
  /** What was wrong with the last answer. */
  readonly issues: OutputIssue[];
  /** Model answers checked (1 + repair turns used). */
  readonly attempts: number;
  readonly schemaName: string;

  constructor(args: {
    reason: StructuredOutputFailure;
    rawText: string;
    issues: OutputIssue[];
    attempts: number;
    schemaName: string;
  }) {
    super(describe(args), { code: CODE });
    this.name = "StructuredOutputError";
    this.reason = args.reason;
    this.rawText = args.rawText;
    this.issues = args.issues;
    this.attempts = args.attempts;
    this.schemaName = args.schemaName;
  }

  static override isInstance(error: unknown): error is StructuredOutputError {
    return GloveError.isInstance(error) && error.code === CODE;
  }
}

function describe(args: {
  reason: StructuredOutputFailure;
  issues: OutputIssue[];
  attempts: number;
  schemaName: string;
}): string {
  const tries = `${args.attempts} attempt${args.attempts === 1 ? "" : "s"}`;
  if (args.reason === "refusal") {
    return `The model refused to answer with the "${args.schemaName}" output (${tries}); see rawText for its reason. Rephrase the request; the conversation is intact.`;
  }
  const shown = args.issues.slice(0, 3).map(formatIssue).join("; ");
  const more = args.issues.length > 3 ? `; and ${args.issues.length - 3} more` : "";
  return (
    `The model's answer did not match the "${args.schemaName}" output schema after ${tries}: ${shown}${more}. ` +
    `Read error.rawText and error.issues, then retry, allow more repair turns (outputRepairs), or loosen the schema; the conversation is intact.`
  );
}

/** `path: message`, the path dotted (`items.0.name`), or just the message at the root. */
export function formatIssue(issue: OutputIssue): string {
  return issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message;
}
