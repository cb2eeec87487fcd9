/** The JSON-RPC 2.0 messages an app and its host exchange over postMessage. */

export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  id: JsonRpcId;
  method: string;
  params: Record<string, unknown>;
}

export interface JsonRpcNotification {
  method: string;
  params: Record<string, unknown>;
}

/** What the host answers a request with: a result, or a JSON-RPC error. */
export type JsonRpcAnswer = { result: Record<string, unknown> } | { error: { code: number; message: string } };

export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** A request refused by the host's rules (not initialized, not allowed, refused by the user). */
export const REFUSED = -32000;

function isId(value: unknown): value is JsonRpcId {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

function paramsOf(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * Reads a message event's data as a request or a notification. Anything else (responses to
 * requests the host never sent, other libraries' messages, junk) is `undefined`: ignored.
 */
export function readMessage(
  data: unknown,
): { request: JsonRpcRequest } | { notification: JsonRpcNotification } | undefined {
  if (data === null || typeof data !== "object") return undefined;
  const message = data as Record<string, unknown>;
  if (message.jsonrpc !== "2.0" || typeof message.method !== "string") return undefined;
  const params = paramsOf(message.params);
  if ("id" in message)
    return isId(message.id) ? { request: { id: message.id, method: message.method, params } } : undefined;
  return { notification: { method: message.method, params } };
}

export function errorAnswer(code: number, message: string): JsonRpcAnswer {
  return { error: { code, message } };
}
