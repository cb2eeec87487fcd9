import { HttpError } from "glove-server";
import { badQuery, json } from "../http/responses.js";
import type { StudioActions, StudioData } from "../types/studio.js";
import { conversationRecord } from "./conversation-detail.js";
import { integerParam, textParam } from "./query-params.js";

const MAX_BODY_CHARS = 256 * 1024;

/** A JSON object body (413 past the limit, 400 when not an object). */
export async function objectBody(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.length > MAX_BODY_CHARS)
    throw new HttpError(413, "GLOVE_STUDIO_TOO_LARGE", "The request body is too large.");
  let body: unknown;
  try {
    body = text === "" ? {} : JSON.parse(text);
  } catch {
    throw badQuery("(body)", "must be a JSON object");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw badQuery("(body)", "must be a JSON object");
  return body as Record<string, unknown>;
}

// Any id a store gives (the handle answers 404 for one not on the branch); no control characters.
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const ID = /^[^\u0000-\u001f\u007f]{1,200}$/;

function messageId(raw: string | undefined): string {
  if (raw === undefined || !ID.test(raw)) throw badQuery("messageId", "must be a stored message's id");
  return raw;
}

const methodNotAllowed = (allowed: string) =>
  new HttpError(405, "GLOVE_STUDIO_METHOD_NOT_ALLOWED", `Use ${allowed} here.`, { headers: { allow: allowed } });

/**
 * The playground's routes below `api/conversations/:id/` (mounted only): messages, regenerate,
 * edit, branches, fork. Undefined when `part` is not one of them.
 */
export async function actionRoute(
  actions: () => StudioActions,
  data: StudioData,
  request: Request,
  id: string,
  part: string,
  partId: string | undefined,
  tail: string | undefined,
): Promise<Response | undefined> {
  const post = request.method === "POST";
  const needPost = () => {
    if (!post) throw methodNotAllowed("POST");
    return actions();
  };
  if (part === "messages" && partId === undefined && post) {
    const act = needPost();
    await conversationRecord(data, id);
    return json(202, await act.send(id, await objectBody(request)));
  }
  if (part === "messages" && partId !== undefined && tail === "edit") {
    const act = needPost();
    await conversationRecord(data, id);
    return json(202, await act.edit(id, messageId(partId), await objectBody(request)));
  }
  if (tail !== undefined) return undefined;
  if (part === "regenerate" && partId === undefined) {
    const act = needPost();
    await conversationRecord(data, id);
    return json(202, await act.regenerate(id));
  }
  if (part === "branches" && partId === undefined) {
    if (request.method !== "GET") throw methodNotAllowed("GET");
    return json(200, await actions().branches(id));
  }
  if (part === "branches" && partId !== undefined) {
    const act = needPost();
    await conversationRecord(data, id);
    return json(200, await act.switchBranch(id, messageId(partId)));
  }
  if (part === "fork" && partId === undefined) {
    const act = needPost();
    await conversationRecord(data, id);
    const body = await objectBody(request);
    const at = body.at;
    if (typeof at !== "number" || !Number.isInteger(at) || at < 0) throw badQuery("at", "must be a message index");
    if (body.variant !== undefined && typeof body.variant !== "string") throw badQuery("variant", "must be a string");
    const fork = await act.fork(id, body.variant === undefined ? { at } : { at, variant: body.variant });
    return json(201, fork);
  }
  return undefined;
}

/** GET api/audit?conversation=&limit= — the actions taken on others' conversations, newest first. */
export async function auditRoute(actions: () => StudioActions, request: Request, url: URL): Promise<Response> {
  if (request.method !== "GET") throw methodNotAllowed("GET");
  const conversationId = textParam(url.searchParams, "conversation");
  const limit = integerParam(url.searchParams, "limit", 100, 1, 1000);
  const entries = await actions().audit(conversationId === undefined ? { limit } : { conversationId, limit });
  return json(200, { entries });
}
