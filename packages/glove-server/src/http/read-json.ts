import { badRequest, HttpError, tooLarge } from "../errors.js";

/**
 * Reads a JSON object body of at most `limitBytes`, counting while it streams so an oversized or
 * endless body is cut off early. Empty bodies read as `{}`.
 */
export async function readJsonObject(request: Request, limitBytes: number): Promise<Record<string, unknown>> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limitBytes) throw bodyTooLarge(limitBytes);
  const type = request.headers.get("content-type");
  if (type && !/^application\/(.+\+)?json\b/i.test(type)) {
    throw new HttpError(415, "GLOVE_UNSUPPORTED_MEDIA_TYPE", `Send a JSON body with content-type application/json (got ${type}).`);
  }
  const text = await readText(request, limitBytes);
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw badRequest(`The body is not valid JSON (${error instanceof Error ? error.message : String(error)}). Send a JSON object.`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw badRequest(`The body must be a JSON object, got ${Array.isArray(value) ? "an array" : value === null ? "null" : typeof value}.`);
  }
  return value as Record<string, unknown>;
}

async function readText(request: Request, limitBytes: number): Promise<string> {
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
    if (error instanceof TypeError && /decode|encoded/i.test(error.message)) throw badRequest("The body is not valid UTF-8.");
    throw badRequest("The request body could not be read (the client stopped sending?).");
  }
}

function bodyTooLarge(limitBytes: number): HttpError {
  return tooLarge(`The body is larger than ${limitBytes} bytes. Send less (limits.bodyBytes sets the limit).`);
}
