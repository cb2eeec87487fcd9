import type { Message } from "glove-core";
import { HttpError, MAX_INSPECT_PAGE, type SlotAnswer } from "glove-server";
import { fixtureSource } from "../fixture/fixture-source.js";
import { badQuery, json, SECURITY_HEADERS } from "../http/responses.js";
import type { StudioActions, StudioData, StudioInfo } from "../types/studio.js";
import { actionRoute, auditRoute } from "./action-routes.js";
import { conversationDetail, conversationRecord } from "./conversation-detail.js";
import { findMessages } from "./find-messages.js";
import { lightTrace, modelCall } from "./model-calls.js";
import { conversationQuery, integerParam, textParam } from "./query-params.js";

/** Where a studio's API reads, and what it may do (actions only when mounted). */
export interface StudioApiContext {
  data: StudioData;
  info: StudioInfo;
  actions?: StudioActions;
  /** A conversation's live events (mounted only: the events are the server's, in its memory). */
  events?: (conversationId: string, after: number | undefined) => Promise<Response>;
}

const MAX_ANSWER_BYTES = 256 * 1024;

const methodNotAllowed = (allowed: string) =>
  new HttpError(405, "GLOVE_STUDIO_METHOD_NOT_ALLOWED", `Use ${allowed} here.`, { headers: { allow: allowed } });
const noRoute = () => new HttpError(404, "GLOVE_STUDIO_NOT_FOUND", "No such studio API route.");

async function answerBody(request: Request): Promise<SlotAnswer> {
  const text = await request.text();
  if (text.length > MAX_ANSWER_BYTES) throw new HttpError(413, "GLOVE_STUDIO_TOO_LARGE", "The answer is too large.");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badQuery("(body)", "must be JSON: { resolve: value } or { reject: reason }");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body) || "resolve" in body === "reject" in body) {
    throw badQuery("(body)", "send exactly one of { resolve: value } or { reject: reason }");
  }
  return "resolve" in body ? { resolve: body.resolve } : { reject: (body as { reject: unknown }).reject };
}

function requireActions(context: StudioApiContext): StudioActions {
  if (!context.actions) {
    throw new HttpError(
      409,
      "GLOVE_STUDIO_READ_ONLY",
      "The standalone studio only reads the storage; act from your app, or mount the studio in your glove-server (createStudio).",
    );
  }
  return context.actions;
}

/** Every message, read in pages so a long conversation never asks the store for one huge query. */
async function allMessages(data: StudioData, id: string): Promise<Message[]> {
  const messages: Message[] = [];
  for (;;) {
    const page = await data.inspector.messages(id, { offset: messages.length, limit: MAX_INSPECT_PAGE });
    messages.push(...page.messages);
    if (page.messages.length === 0 || messages.length >= page.total) return messages;
  }
}

/** Where a reconnecting page resumes: `Last-Event-ID` or `?after=`, an event id. */
function eventPosition(request: Request, url: URL): number | undefined {
  const raw = request.headers.get("last-event-id") ?? url.searchParams.get("after");
  if (raw === null || raw === "") return undefined;
  if (!/^\d{1,15}$/.test(raw)) throw badQuery("after", "must be an event id (a whole number)");
  return Number(raw);
}

/** The JSON API below "api/": `segments` are the path's parts after it. */
export async function studioApi(
  context: StudioApiContext,
  request: Request,
  segments: string[],
  url: URL,
): Promise<Response> {
  const { data } = context;
  const method = request.method;
  const [first, id, part, partId, ...rest] = segments;
  const get = method === "GET" || method === "HEAD";
  if (part === "traces" && partId !== undefined && rest.length === 2 && rest[0] === "calls") {
    if (!get) throw methodNotAllowed("GET");
    await conversationRecord(data, id!);
    return json(200, await modelCall(data, id!, partId, rest[1]!));
  }
  const acts = () => requireActions(context);
  if (first === "conversations" && id !== undefined && part !== undefined && rest.length <= 1) {
    const acted = await actionRoute(acts, data, request, id, part, partId, rest[0]);
    if (acted) return acted;
  }
  if (rest.length > 0) throw noRoute();
  if (first === "audit" && segments.length === 1) return auditRoute(acts, request, url);

  if (first === "info" && segments.length === 1) {
    if (!get) throw methodNotAllowed("GET");
    return json(200, context.info);
  }
  if (first !== "conversations") throw noRoute();
  if (id === undefined) {
    if (!get) throw methodNotAllowed("GET");
    return json(200, await data.inspector.listConversations(conversationQuery(url.searchParams)));
  }
  if (part === undefined) {
    if (!get) throw methodNotAllowed("GET");
    return json(200, await conversationDetail(data, id));
  }
  if (part === "messages" && partId === undefined) {
    if (!get) throw methodNotAllowed("GET");
    await conversationRecord(data, id);
    const offset = integerParam(url.searchParams, "offset", 0, 0, 1e9);
    const limit = integerParam(url.searchParams, "limit", 100, 1, MAX_INSPECT_PAGE);
    return json(200, await data.inspector.messages(id, { offset, limit }));
  }
  if (part === "traces") {
    if (!get) throw methodNotAllowed("GET");
    await conversationRecord(data, id);
    if (partId === undefined) {
      const before = textParam(url.searchParams, "before");
      const limit = integerParam(url.searchParams, "limit", 50, 1, 200);
      const traces = await data.inspector.traces.list(id, before === undefined ? { limit } : { limit, before });
      return json(200, { traces: traces.map(lightTrace) });
    }
    const trace = await data.inspector.traces.get(id, partId);
    if (!trace)
      throw new HttpError(
        404,
        "GLOVE_STUDIO_NOT_FOUND",
        "No trace of that turn (turns are traced from the server version that records them on).",
      );
    return json(200, lightTrace(trace));
  }
  if (part === "events" && partId === undefined) {
    if (!get) throw methodNotAllowed("GET");
    await conversationRecord(data, id);
    if (!context.events) {
      throw new HttpError(
        409,
        "GLOVE_STUDIO_NO_EVENTS",
        "The standalone studio has no live events (turns run in your app's server); read the conversation again instead, or mount the studio in your glove-server (createStudio).",
      );
    }
    return context.events(id, eventPosition(request, url));
  }
  if (part === "find" && partId === undefined) {
    if (!get) throw methodNotAllowed("GET");
    await conversationRecord(data, id);
    const text = textParam(url.searchParams, "text");
    if (text === undefined) throw badQuery("text", "say what to find");
    return json(200, await findMessages(data.inspector, id, text));
  }
  if (part === "fixture" && partId === undefined) {
    if (!get) throw methodNotAllowed("GET");
    const record = await conversationRecord(data, id);
    return new Response(fixtureSource(record, await allMessages(data, id)), {
      headers: { ...SECURITY_HEADERS, "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    });
  }
  if (part === "questions" && partId !== undefined) {
    if (method !== "POST") throw methodNotAllowed("POST");
    const actions = requireActions(context);
    await conversationRecord(data, id);
    return json(200, await actions.answer(id, partId, await answerBody(request)));
  }
  if (part === "abort" && partId === undefined) {
    if (method !== "POST") throw methodNotAllowed("POST");
    const actions = requireActions(context);
    await conversationRecord(data, id);
    return json(200, await actions.abort(id));
  }
  throw noRoute();
}
