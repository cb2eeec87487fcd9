import type { StructuredOutputRequest } from "../types/index.js";
import { formatIssue, type OutputIssue } from "./structured-output-error.js";

/**
 * The system-prompt addition for adapters without a native JSON-schema mode: the schema is
 * spelled out for this request's calls only.
 */
export function outputInstruction(output: StructuredOutputRequest): string {
  const about = output.description ? `\n${output.description}` : "";
  return (
    `When you give your final answer (after any tool calls), reply with only a JSON value, no prose and no code fence, ` +
    `that matches this JSON Schema named "${output.name}":${about}\n${JSON.stringify(output.schema)}`
  );
}

/** The user turn that shows the model why its answer was rejected. */
export function repairMessage(output: StructuredOutputRequest, issues: OutputIssue[]): string {
  const list = issues
    .slice(0, 20)
    .map((issue) => `- ${formatIssue(issue)}`)
    .join("\n");
  return (
    `Your last answer does not match the required "${output.name}" JSON schema:\n${list}\n` +
    `Reply again with only the corrected JSON value.`
  );
}
