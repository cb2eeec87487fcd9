import { conversationStream } from "../conversations/conversation-stream.js";
import { badRequest, quoted } from "../errors.js";
import { sseResponse } from "../http/sse-response.js";
import { ownedLive, type RouteContext } from "./route-context.js";

/** The position a client resumes from: `Last-Event-ID` (what EventSource sends) or `?after=`. */
function resumePosition(ctx: RouteContext): number | undefined {
  const raw = ctx.request.headers.get("last-event-id") ?? ctx.url.searchParams.get("after");
  if (raw === null || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0)
    throw badRequest(`Last-Event-ID / after must be an event id (a whole number), got ${quoted(raw)}.`);
  return value;
}

/** GET /conversations/:id/events → Server-Sent Events: a snapshot or a replay, then live events. */
export async function streamEvents(ctx: RouteContext): Promise<Response> {
  const after = resumePosition(ctx);
  const conversation = await ownedLive(ctx);
  if (after !== undefined) await conversation.catchUp?.(after);
  return sseResponse(
    conversationStream(conversation, { after, heartbeatMs: ctx.options.heartbeatMs, retryMs: ctx.options.retryMs }),
  );
}
