import type { z } from "zod";
import type { ModelAnswer, PlainRequestResult } from "../types/index.js";

/** A zod 4 schema describing a structured answer (from "zod" 4.x, or "zod/v4" in zod 3.25). */
export type OutputSchema = z.ZodType;

/**
 * The second argument of `processRequest` and `stream` when it is not a bare AbortSignal.
 * With `output`, the request's final answer must be JSON that `output` parses.
 */
export interface ProcessRequestOptions<S extends OutputSchema | undefined = OutputSchema | undefined> {
  signal?: AbortSignal | undefined;
  /** Ask for a structured final answer; the result then carries the parsed `output`. */
  output?: S;
  /** Schema name providers see (letters, digits, `_`, `-`; at most 64). Default "response". */
  outputName?: string | undefined;
  /** Told to the model along with the schema. */
  outputDescription?: string | undefined;
  /**
   * Extra turns that show the model what was wrong with its answer before the request fails
   * with a StructuredOutputError. Default 1; 0 fails at the first bad answer.
   */
  outputRepairs?: number | undefined;
}

/** What a structured request resolves to: the model's answer (with `text` and `usage`) plus the parsed output. */
export interface StructuredRequestResult<T> extends ModelAnswer {
  /** The final answer, parsed by the output schema (its output type: defaults and transforms applied). */
  output: T;
  /** Model answers checked: 1, or more when repair turns were needed. */
  attempts: number;
}

/**
 * The result type of `processRequest`/`stream` for an `output` schema type `S`: structured
 * (with `output` typed from the schema) when a schema is given, the plain result when not.
 */
export type RequestResult<S extends OutputSchema | undefined> = [S] extends [never]
  ? PlainRequestResult
  : [S] extends [OutputSchema]
    ? StructuredRequestResult<z.output<S>>
    : [S] extends [undefined]
      ? PlainRequestResult
      : PlainRequestResult | StructuredRequestResult<z.output<Exclude<S, undefined>>>;
