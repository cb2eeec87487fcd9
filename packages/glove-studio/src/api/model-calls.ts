import { HttpError, resolveRecordedCall, type RecordedCall, type ResolvedRequest, type TurnTrace } from "glove-server";
import type { StudioData } from "../types/studio.js";

/**
 * A trace as the Studio's lists and waterfall read it: each recorded model call without its
 * request and answer bodies (those come one call at a time from the call's own route), so a turn's
 * listing stays small however large its requests were.
 */
export function lightTrace(trace: TurnTrace): TurnTrace {
  if (!trace.calls) return trace;
  return { ...trace, calls: trace.calls.map(lightCall) };
}

function lightCall(call: RecordedCall): RecordedCall {
  const { request, answer, headers: _headers, ...rest } = call;
  const light: RecordedCall = {
    ...rest,
    request: { form: request.form, keep: request.keep, added: [], count: request.count, marks: [] },
  };
  if (answer) {
    const { text: _text, reasoning: _reasoning, toolCalls, ...kept } = answer;
    light.answer = { ...kept, ...(toolCalls ? { toolCalls: toolCalls.map((c) => ({ ...c, input_args: {} })) } : {}) };
  }
  return light;
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
  return { ...resolved, call: { ...resolved.call, request: { ...request, marks: [] } } };
}
