import { badRequest, HttpError, quoted, tooLarge } from "../errors.js";
import { takeWholeBody } from "./node-request.js";

/**
 * JSON nested deeper than this is refused: no route needs it, and code that walks values
 * recursively (JSON.stringify, schema checks) would overflow the stack on it.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Reads a JSON object body of at most `limitBytes`, counting while it streams so an oversized or
 * endless body is cut off early, and nested at most MAX_JSON_DEPTH deep. Empty bodies read as `{}`.
 */
export async function readJsonObject(request: Request, limitBytes: number): Promise<Record<string, unknown>> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limitBytes) throw bodyTooLarge(limitBytes);
  const type = request.headers.get("content-type");
  if (type && !/^application\/(.+\+)?json\b/i.test(type)) {
    throw new HttpError(
      415,
      "GLOVE_UNSUPPORTED_MEDIA_TYPE",
      `Send a JSON body with content-type application/json (got ${quoted(type)}).`,
    );
  }
  const text = await readText(request, limitBytes);
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw badRequest(
      `The body is not valid JSON (${error instanceof Error ? error.message.slice(0, 200) : "unreadable"}). Send a JSON object.`,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw badRequest(
      `The body must be a JSON object, got ${Array.isArray(value) ? "an array" : value === null ? "null" : typeof value}.`,
    );
  }
  const deep = deeperThan(value, MAX_JSON_DEPTH);
  if (deep !== undefined) {
    throw badRequest(`The body nests deeper than ${MAX_JSON_DEPTH} levels.`, [
      { path: deep, message: `Nested deeper than ${MAX_JSON_DEPTH} levels` },
    ]);
  }
  return value as Record<string, unknown>;
}

/** Decodes a whole body at once (no stream state, so one serves every request). */
const WHOLE = new TextDecoder("utf-8", { fatal: true });

async function readText(request: Request, limitBytes: number): Promise<string> {
  const whole = takeWholeBody(request);
  if (whole) {
    if (whole.byteLength > limitBytes) throw bodyTooLarge(limitBytes);
    try {
      return WHOLE.decode(whole);
    } catch {
      throw badRequest("The body is not valid UTF-8.");
    }
  }
  if (!request.body) return "";
  const reader = request.body.getReader();
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let size = 0;
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limitBytes) {
        await reader.cancel().catch(() => undefined);
        throw bodyTooLarge(limitBytes);
      }
      text += decoder.decode(value, { stream: true });
    }
    return text + decoder.decode();
  } catch (error) {
    if (HttpError.isInstance(error)) throw error;
    if (error instanceof TypeError && /decode|encoded/i.test(error.message))
      throw badRequest("The body is not valid UTF-8.");
    throw badRequest("The request body could not be read (the client stopped sending?).");
  }
}

function bodyTooLarge(limitBytes: number): HttpError {
  return tooLarge(`The body is larger than ${limitBytes} bytes. Send less (limits.bodyBytes sets the limit).`);
}

interface Visit {
  value: unknown;
  depth: number;
  key: string;
  parent: Visit | undefined;
}

/**
 * The path of the first value nested deeper than `max`, if any. Iterative, as the input itself
 * may be deep; paths are built only for the answer, as keys may be long.
 */
function deeperThan(root: unknown, max: number): string | undefined {
  const stack: Visit[] = [{ value: root, depth: 0, key: "", parent: undefined }];
  while (stack.length) {
    const visit = stack.pop()!;
    if (typeof visit.value !== "object" || visit.value === null) continue;
    if (visit.depth >= max) return pathOf(visit);
    for (const [key, child] of Object.entries(visit.value)) {
      if (typeof child === "object" && child !== null)
        stack.push({ value: child, depth: visit.depth + 1, key, parent: visit });
    }
  }
  return undefined;
}

function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent)
    keys.push(at.key.length > 20 ? `${at.key.slice(0, 20)}…` : at.key);
  return keys.reverse().join(".");
}
