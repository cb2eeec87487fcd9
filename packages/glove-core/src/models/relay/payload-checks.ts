/**
 * Shape checks for what a relay sends back. The runtime and UIs trust event and
 * result shapes, so a relay answering something else (a different server at
 * that URL, a version mismatch) fails here with a clear ProviderError instead of
 * deep inside a subscriber.
 */
import { ProviderError } from "../../errors.js";
import type { Message, ModelPromptResult, SubscriberEventDataMap } from "../../types/index.js";
import {
  RELAY_FORWARDED_EVENTS,
  RELAY_PROVIDER,
  type RelayErrorPayload,
  type RelayForwardedEvent,
} from "./protocol.js";

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === "string";
const isCount = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0;
const isBoolean = (v: unknown): v is boolean => typeof v === "boolean";
const optional = (v: unknown, check: (x: unknown) => boolean) => v === undefined || check(v);

const isToolCall = (v: unknown) =>
  isRecord(v) && isString(v["tool_name"]) && optional(v["id"], isString) && optional(v["provider_extras"], isRecord);
const isToolCalls = (v: unknown) => Array.isArray(v) && v.every(isToolCall);

const isReasoningBlock = (v: unknown) =>
  isRecord(v) &&
  (v["type"] === "thinking" || v["type"] === "redacted_thinking") &&
  ["text", "signature", "data", "provider"].every((key) => optional(v[key], isString));

/** An answer's message; the fields an adapter sends back next turn must have their types, or the next turn breaks. */
function isMessage(v: unknown): v is Message {
  return (
    isRecord(v) &&
    (v["sender"] === "agent" || v["sender"] === "user") &&
    isString(v["text"]) &&
    optional(v["tool_calls"], isToolCalls) &&
    optional(v["reasoning_content"], isString) &&
    optional(v["reasoning_blocks"], (b) => Array.isArray(b) && b.every(isReasoningBlock)) &&
    optional(v["is_refusal"], isBoolean) &&
    optional(v["provider"], isString) &&
    optional(v["provider_extras"], isRecord)
  );
}

function isResponseSummary(v: Json): boolean {
  return (
    isString(v["text"]) &&
    optional(v["tool_calls"], isToolCalls) &&
    optional(v["stop_reason"], isString) &&
    optional(v["tokens_in"], isCount) &&
    optional(v["tokens_out"], isCount)
  );
}

const EVENT_CHECKS: Record<RelayForwardedEvent, (v: Json) => boolean> = {
  text_delta: (v) => isString(v["text"]),
  tool_use: (v) => isString(v["id"]) && isString(v["name"]),
  model_response: isResponseSummary,
  model_response_complete: isResponseSummary,
  token_consumption: (v) =>
    isRecord(v["consumption"]) && isCount(v["consumption"]["tokens_in"]) && isCount(v["consumption"]["tokens_out"]),
  model_refusal: (v) => isString(v["text"]),
  // The upstream adapter's retries, so the page's traces show why the answer took longer.
  model_retry: (v) =>
    isString(v["provider"]) &&
    isCount(v["attempt"]) &&
    isCount(v["delay_ms"]) &&
    isCount(v["status"]) &&
    optional(v["code"], isString) &&
    isString(v["reason"]),
};

const FORWARDED: ReadonlySet<string> = new Set(RELAY_FORWARDED_EVENTS);

export function isForwardedEvent(name: string): name is RelayForwardedEvent {
  return FORWARDED.has(name);
}

/** A malformed answer: not retryable, as asking again gets the same. */
export function malformed(what: string, data: string): ProviderError {
  return new ProviderError({
    provider: RELAY_PROVIDER,
    status: 0,
    retryable: false,
    providerMessage: `malformed ${what} from the relay: ${data.slice(0, 200)}`,
  });
}

function parseJson(what: string, data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    throw malformed(what, data);
  }
}

/** The data of a forwarded event, checked. */
export function eventData<T extends RelayForwardedEvent>(name: T, data: string): SubscriberEventDataMap[T] {
  const value = parseJson(`"${name}" event`, data);
  if (!isRecord(value) || !EVENT_CHECKS[name](value)) throw malformed(`"${name}" event`, data);
  return value as SubscriberEventDataMap[T];
}

/** The data of the `result` event, checked. */
export function resultData(data: string): ModelPromptResult {
  const value = parseJson("result", data);
  if (
    !isRecord(value) ||
    !Array.isArray(value["messages"]) ||
    !value["messages"].every(isMessage) ||
    !isCount(value["tokens_in"]) ||
    !isCount(value["tokens_out"])
  ) {
    throw malformed("result", data);
  }
  return value as unknown as ModelPromptResult;
}

/** The data of the `error` event; a malformed one still fails the prompt, with what was sent. */
export function errorData(data: string): RelayErrorPayload {
  let value: unknown;
  try {
    value = JSON.parse(data) as unknown;
  } catch {
    value = undefined;
  }
  if (!isRecord(value) || !isString(value["message"])) {
    return { code: "GLOVE_RELAY_ERROR", message: data.slice(0, 500) || "the relay reported an error" };
  }
  const out: RelayErrorPayload = {
    code: isString(value["code"]) ? value["code"] : "GLOVE_RELAY_ERROR",
    message: value["message"],
  };
  if (isCount(value["status"])) out.status = value["status"];
  if (typeof value["retryable"] === "boolean") out.retryable = value["retryable"];
  if (isString(value["providerCode"])) out.providerCode = value["providerCode"];
  if (isCount(value["retryAfterMs"])) out.retryAfterMs = value["retryAfterMs"];
  return out;
}
