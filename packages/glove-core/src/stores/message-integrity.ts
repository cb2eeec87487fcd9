import type { Message, ToolCall, ToolResult } from "../types/index.js";

/** Text of the result recorded for a tool call whose process stopped before it returned. */
export const INTERRUPTED_TOOL_MESSAGE =
  "The tool did not finish: the process running it stopped (crash or kill) before it returned. " +
  "Its effects are unknown; check before retrying.";

/**
 * Where the current turn starts in `messages`: after the last user message that is a real turn
 * (text, not tool results). Everything from there on belongs to the model's work on that turn.
 */
export function currentTurnStart(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.sender === "user" && !(Array.isArray(m.tool_results) && m.tool_results.length > 0)) return i + 1;
  }
  return 0;
}

/** Tool calls of the current turn that no result answers yet, in call order. */
export function unansweredToolCalls(messages: readonly Message[]): ToolCall[] {
  const pending: ToolCall[] = [];
  for (const m of messages.slice(currentTurnStart(messages))) {
    if (m.sender === "agent" && Array.isArray(m.tool_calls)) pending.push(...m.tool_calls);
    if (m.sender !== "user" || !Array.isArray(m.tool_results)) continue;
    for (const result of m.tool_results) {
      const index =
        result.call_id !== undefined
          ? pending.findIndex((call) => call.id === result.call_id)
          : pending.findIndex((call) => call.id === undefined && call.tool_name === result.tool_name);
      if (index !== -1) pending.splice(index, 1);
    }
  }
  return pending;
}

/**
 * The repair for an interrupted tool turn (docs/decisions/0006; also run by Agent.ask for every
 * store). `recent` is the end of the stored conversation (at least back to the last user turn when
 * it ends with an agent message; see `needsTurnWindow`). When calls of the current turn have no
 * result and the next append does not carry results, one `aborted` result per unanswered call is
 * appended first — every call since the last user turn, not only those of the last message.
 * Returns that message, or undefined when nothing needs repairing.
 */
export function repairForInterruptedTools(
  recent: readonly Message[],
  incoming: readonly Message[],
): Message | undefined {
  if (!needsTurnWindow(recent.at(-1))) return undefined;
  const next = incoming[0];
  if (next && Array.isArray(next.tool_results) && next.tool_results.length > 0) return undefined;
  const calls = unansweredToolCalls(recent);
  if (calls.length === 0) return undefined;
  return { sender: "user", text: "", tool_results: calls.map(interruptedResult) };
}

/** The `aborted` result a call gets when the process running it died before it answered. */
export function interruptedResult(call: ToolCall): ToolResult {
  return {
    tool_name: call.tool_name,
    ...(call.id === undefined ? {} : { call_id: call.id }),
    result: { status: "aborted", data: null, message: INTERRUPTED_TOOL_MESSAGE },
  };
}

/**
 * Call ids that results in `incoming` answer although no call of the current turn waits for them.
 * A store that repairs interrupted turns checks these against the results it already holds and
 * refuses a batch that would give a call a second result (a slow writer whose turn another
 * process took over and recorded as interrupted). `recent` as for the repair.
 */
export function unexpectedToolResults(recent: readonly Message[], incoming: readonly Message[]): string[] {
  const pending = new Set<string>();
  for (const call of unansweredToolCalls(recent)) if (call.id !== undefined) pending.add(call.id);
  const late: string[] = [];
  for (const m of incoming) {
    if (m.sender === "agent") for (const call of m.tool_calls ?? []) if (call.id !== undefined) pending.add(call.id);
    if (m.sender !== "user") continue;
    for (const result of m.tool_results ?? []) {
      if (result.call_id === undefined) continue;
      if (pending.has(result.call_id)) pending.delete(result.call_id);
      else late.push(result.call_id);
    }
  }
  return late;
}

/** The call ids `messages` already hold a result for. */
export function answeredCallIds(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const m of messages) for (const r of m.tool_results ?? []) if (r.call_id !== undefined) ids.add(r.call_id);
  return ids;
}

/**
 * Only a conversation that ends with an agent message can have unanswered calls (the loop stores
 * a turn's results in one message right after its calls), so stores read further back only then.
 */
export function needsTurnWindow(tail: Message | undefined): boolean {
  return tail?.sender === "agent";
}

/**
 * Parses a stored message body and checks the fields every reader relies on. Returns the message,
 * or a reason it is corrupt.
 */
export function decodeMessage(body: unknown): { message: Message } | { problem: string } {
  if (typeof body !== "string")
    return { problem: `the body is ${body === null ? "NULL" : typeof body}, not JSON text` };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return { problem: `the body is not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { problem: "the body is not a JSON object" };
  const m = value as Record<string, unknown>;
  if (m.sender !== "user" && m.sender !== "agent")
    return { problem: `sender is ${JSON.stringify(m.sender)}, not "user" or "agent"` };
  if (typeof m.text !== "string") return { problem: "text is not a string" };
  for (const key of ["content", "tool_calls", "tool_results"] as const) {
    if (m[key] !== undefined && !Array.isArray(m[key])) return { problem: `${key} is not an array` };
  }
  return { message: value as Message };
}
