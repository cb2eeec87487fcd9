import {
  HttpError,
  isRecordedCall,
  resolveRecordedCall,
  type RecordedCall,
  type ResolvedRequest,
  type TurnTrace,
} from "glove-server";
import type { StudioData } from "../types/studio.js";

/**
 * A trace as the Studio's lists and waterfall read it: each recorded model call without its
 * request and answer bodies (those come one call at a time from the call's own route), so a turn's
 * listing stays small however large its requests were.
 */
export function lightTrace(trace: TurnTrace): TurnTrace {
  if (trace.calls === undefined) return trace;
  // A damaged or foreign row's calls are left out, not passed on for the page to trip over.
  return { ...trace, calls: Array.isArray(trace.calls) ? trace.calls.filter(isRecordedCall).map(lightCall) : [] };
}

function lightCall(call: RecordedCall): RecordedCall {
  const { request, answer, headers: _headers, ...rest } = call;
  const light: RecordedCall = {
    ...rest,
    request: { form: request.form, keep: request.keep, added: [], count: request.count, marks: [] },
  };
  const shown = shownAnswer(answer);
  if (shown) {
    const { text: _text, reasoning: _reasoning, toolCalls, ...kept } = shown;
    light.answer = { ...kept, ...(toolCalls ? { toolCalls: toolCalls.map((c) => ({ ...c, input_args: {} })) } : {}) };
  }
  return light;
}

/** The answer with each field of the type the page expects (a stored row is not trusted); undefined when there is none. */
function shownAnswer(answer: unknown): RecordedCall["answer"] {
  if (typeof answer !== "object" || answer === null) return undefined;
  const a = answer as Record<string, unknown>;
  const out: NonNullable<RecordedCall["answer"]> = {};
  for (const key of ["text", "reasoning", "finishReason", "error"] as const)
    if (typeof a[key] === "string") out[key] = a[key];
  if (Array.isArray(a.toolCalls))
    out.toolCalls = a.toolCalls.filter(
      (c): c is NonNullable<typeof out.toolCalls>[number] =>
        typeof c === "object" && c !== null && typeof (c as { tool_name?: unknown }).tool_name === "string",
    );
  const usage = a.usage as { tokens_in?: unknown; tokens_out?: unknown } | undefined;
  if (usage && typeof usage.tokens_in === "number" && typeof usage.tokens_out === "number")
    out.usage = { tokens_in: usage.tokens_in, tokens_out: usage.tokens_out };
  return out;
}

/** GET api/conversations/:id/traces/:turnId/calls/:callId — the call's request made whole, its answer, the diff. */
export async function modelCall(
  data: StudioData,
  conversationId: string,
  turnId: string,
  callId: string,
): Promise<ResolvedRequest> {
  const resolved =
    callId.length <= 200 && turnId.length <= 200
      ? await resolveRecordedCall(data.inspector.traces, conversationId, turnId, callId)
      : undefined;
  if (!resolved)
    throw new HttpError(
      404,
      "GLOVE_STUDIO_NOT_FOUND",
      "No recorded request for that call (the storage may keep no request log: TraceLimits.requestLog).",
    );
  const { marks: _marks, ...request } = resolved.call.request;
  const { answer, ...call } = resolved.call;
  const shown = shownAnswer(answer);
  return { ...resolved, call: { ...call, request: { ...request, marks: [] }, ...(shown ? { answer: shown } : {}) } };
}
