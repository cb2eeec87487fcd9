import { ProviderError } from "../../errors.js";

/**
 * Reading provider JSON of an unknown shape. A provider's answer is valid JSON we did not write:
 * any field may hold any JSON value. Readers go through these checks so a value of the wrong type
 * becomes a ProviderError naming the provider and the field (`openai:
 * chunk.choices[0].delta.content is a number, expected a string`), never a TypeError deep in an
 * adapter, and never a value of the wrong type handed on to the runtime.
 *
 * Conventions: `null` counts as absent for optional fields (providers send `"content": null`,
 * `"usage": null`…); `path` names the field as it sits in the provider's JSON.
 */

/** A JSON object (not null, not an array). */
export type JsonObject = Record<string, unknown>;

/** What a value is, for error messages: "null", "an array", "an object", "a string"… */
export function describeJson(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "absent";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "object":
      return "an object";
    case "string":
      return "a string";
    case "number":
      return Number.isFinite(value) ? "a number" : `${value}`;
    case "boolean":
      return "a boolean";
    default:
      return typeof value;
  }
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `providerCode` of every ProviderError for a provider answer of the wrong shape. */
export const MALFORMED_RESPONSE_CODE = "malformed_response";

/** A provider answer of the wrong shape: not retryable (the same request would get the same answer). */
export function malformedResponse(provider: string, status: number, detail: string): ProviderError {
  return new ProviderError({
    provider,
    status,
    retryable: false,
    providerMessage: detail,
    providerCode: MALFORMED_RESPONSE_CODE,
    message:
      `${provider}: ${detail}. The answer was discarded; retry the request, and if it keeps happening, ` +
      "the provider (or a server in front of it) is sending answers of a shape Glove does not read.",
  });
}

/**
 * Checks the fields of one provider answer. `status` is the HTTP status the answer came with, as
 * carried by the errors.
 */
export class WireShape {
  constructor(
    readonly provider: string,
    readonly status: number,
  ) {}

  /** The error for `value` found at `path` where `expected` belongs. */
  wrong(path: string, value: unknown, expected: string): ProviderError {
    return malformedResponse(this.provider, this.status, `${path} is ${describeJson(value)}, expected ${expected}`);
  }

  /** A free-form complaint about the answer. */
  fail(detail: string): ProviderError {
    return malformedResponse(this.provider, this.status, detail);
  }

  object(value: unknown, path: string): JsonObject {
    if (!isJsonObject(value)) throw this.wrong(path, value, "an object");
    return value;
  }

  optObject(value: unknown, path: string): JsonObject | undefined {
    return value === undefined || value === null ? undefined : this.object(value, path);
  }

  array(value: unknown, path: string): unknown[] {
    if (!Array.isArray(value)) throw this.wrong(path, value, "an array");
    return value;
  }

  optArray(value: unknown, path: string): unknown[] | undefined {
    return value === undefined || value === null ? undefined : this.array(value, path);
  }

  string(value: unknown, path: string): string {
    if (typeof value !== "string") throw this.wrong(path, value, "a string");
    return value;
  }

  /** A tool's name: a non-empty string (no tool is named "", and a call without a name cannot be answered). */
  toolName(value: unknown, path: string): string {
    const name = this.string(value, path);
    if (name === "") throw this.fail(`${path} is empty, expected the name of a tool`);
    return name;
  }

  optString(value: unknown, path: string): string | undefined {
    return value === undefined || value === null ? undefined : this.string(value, path);
  }

  /** A position (block index, tool-call index): a non-negative integer. */
  index(value: unknown, path: string): number {
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0)
      throw this.wrong(path, value, "a non-negative integer");
    return value;
  }

  optIndex(value: unknown, path: string): number | undefined {
    return value === undefined || value === null ? undefined : this.index(value, path);
  }
}

/**
 * A token count as reported, or undefined when it is not a usable count (absent, null, a string,
 * fractional, negative, past 2^53): the caller then estimates, so the runtime only ever sees
 * finite non-negative integers.
 */
export function tokenCount(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** The sum of token counts, capped at Number.MAX_SAFE_INTEGER so it stays an exact integer. */
export function addCounts(...counts: number[]): number {
  let total = 0;
  for (const count of counts) total += count;
  return Math.min(total, Number.MAX_SAFE_INTEGER);
}

/**
 * Tool-call arguments as the provider sent them: JSON text (possibly in fragments), or — some
 * servers do this — the arguments object itself, used as the parsed input rather than turned into
 * text. Anything else is the wrong shape.
 */
export type ArgumentsValue = { text: string } | { object: JsonObject } | undefined;

export function argumentsValue(shape: WireShape, value: unknown, path: string): ArgumentsValue {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return { text: value };
  if (isJsonObject(value)) return { object: value };
  throw shape.wrong(path, value, "a string (or an arguments object)");
}
