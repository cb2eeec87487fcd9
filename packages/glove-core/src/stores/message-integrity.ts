import type { Message, ToolResult } from "../types/index.js";

/** Text of the result recorded for a tool call whose process stopped before it returned. */
export const INTERRUPTED_TOOL_MESSAGE =
  "The tool did not finish: the process running it stopped (crash or kill) before it returned. " +
  "Its effects are unknown; check before retrying.";

/**
 * The repair for an interrupted tool turn (docs/decisions/0006; also run by Agent.ask for every store): when the stored conversation ends
 * with an agent message whose tool calls have no results and the next append does not carry
 * results, the store first appends one `aborted` result per call. Returns that message, or
 * undefined when nothing needs repairing.
 */
export function repairForInterruptedTools(tail: Message | undefined, incoming: readonly Message[]): Message | undefined {
  if (!tail || tail.sender !== "agent" || !Array.isArray(tail.tool_calls) || tail.tool_calls.length === 0) return undefined;
  const next = incoming[0];
  if (next && Array.isArray(next.tool_results) && next.tool_results.length > 0) return undefined;
  const tool_results: ToolResult[] = tail.tool_calls.map((call) => ({
    tool_name: call.tool_name,
    ...(call.id === undefined ? {} : { call_id: call.id }),
    result: { status: "aborted", data: null, message: INTERRUPTED_TOOL_MESSAGE },
  }));
  return { sender: "user", text: "", tool_results };
}

/**
 * Parses a stored message body and checks the fields every reader relies on. Returns the message,
 * or a reason it is corrupt.
 */
export function decodeMessage(body: unknown): { message: Message } | { problem: string } {
  if (typeof body !== "string") return { problem: `the body is ${body === null ? "NULL" : typeof body}, not JSON text` };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return { problem: `the body is not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { problem: "the body is not a JSON object" };
  const m = value as Record<string, unknown>;
  if (m.sender !== "user" && m.sender !== "agent") return { problem: `sender is ${JSON.stringify(m.sender)}, not "user" or "agent"` };
  if (typeof m.text !== "string") return { problem: "text is not a string" };
  for (const key of ["content", "tool_calls", "tool_results"] as const) {
    if (m[key] !== undefined && !Array.isArray(m[key])) return { problem: `${key} is not an array` };
  }
  return { message: value as Message };
}
