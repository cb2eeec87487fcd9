import { whole, type Chunking } from "./chunking.js";
import { NamedError } from "./named-error.js";
import type { RecordedResponse } from "./recorded-response.js";

/** One scripted answer: a recorded response and how to cut its body (whole by default). */
export interface ReplayStep {
  response: RecordedResponse;
  chunking?: Chunking;
}

/** A request the replay received, so a test can assert what the adapter sent back. */
export interface ReplayedRequest {
  method: string;
  /** Path and query, e.g. `/v1/chat/completions`. */
  path: string;
  headers: Record<string, string>;
  /** The body as sent. */
  raw: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/** Thrown when the adapter makes more requests than the script has steps: a test bug, not a provider one. */
export class ReplayExhaustedError extends NamedError {
  constructor(count: number) {
    super(`the replay script has ${count} step(s) and all were used: add a step for each request the test makes`);
  }
}

/** Hands out scripted steps in order and keeps every request received. */
export class ReplayScript {
  readonly requests: ReplayedRequest[] = [];

  constructor(private readonly steps: ReplayStep[]) {}

  /** Records `request` and returns the step answering it with its body cut into pieces. */
  next(request: ReplayedRequest): { response: RecordedResponse; pieces: Uint8Array[] } {
    const step = this.steps[this.requests.length];
    this.requests.push(request);
    if (!step) throw new ReplayExhaustedError(this.steps.length);
    return { response: step.response, pieces: (step.chunking ?? whole)(step.response.body) };
  }

  /** The JSON body of request `index` (default: the last). */
  body(index = this.requests.length - 1): Record<string, unknown> {
    const json = this.requests[index]?.json;
    if (typeof json !== "object" || json === null || Array.isArray(json))
      throw new Error(`request ${index} has no JSON object body`);
    return json as Record<string, unknown>;
  }
}

export function parseJson(raw: string): unknown {
  try {
    return raw ? (JSON.parse(raw) as unknown) : undefined;
  } catch {
    return undefined;
  }
}
