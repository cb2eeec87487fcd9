import { ConfigurationError } from "./errors.js";
import { requestSinks } from "./glove-stream.js";
import type { EventSink } from "./runtime/event-bus.js";
import { outputSpec, type OutputSpec } from "./structured-output/output-spec.js";
import type { ProcessRequestOptions } from "./structured-output/types.js";

/** The second argument of `processRequest`, checked and read. */
export interface RequestSettings {
  signal?: AbortSignal;
  /** Present when the request asks for structured output. */
  spec?: OutputSpec;
  /** Present for `Glove.stream` requests: receives the request's events while it runs. */
  sink?: EventSink;
}

function isAbortSignal(value: object): value is AbortSignal {
  const v = value as { aborted?: unknown; addEventListener?: unknown };
  return typeof v.aborted === "boolean" && typeof v.addEventListener === "function";
}

/** Accepts an AbortSignal (the original form) or an options object. */
export function readRequestOptions(arg: unknown): RequestSettings {
  if (arg === undefined || arg === null) return {};
  if (typeof arg !== "object") {
    throw new ConfigurationError(
      `processRequest(): the second argument must be an AbortSignal or an options object { signal?, output? }; got ${typeof arg}.`,
    );
  }
  if (isAbortSignal(arg)) return { signal: arg };
  const options = arg as ProcessRequestOptions;
  if (
    options.signal !== undefined &&
    !(typeof options.signal === "object" && options.signal !== null && isAbortSignal(options.signal))
  ) {
    throw new ConfigurationError(
      "processRequest(): options.signal must be an AbortSignal (for example controller.signal).",
    );
  }
  return { signal: options.signal, spec: outputSpec(options), sink: requestSinks.get(arg) };
}
