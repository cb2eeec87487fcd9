import type { StructuredOutputRequest } from "../types/index.js";
import { ConfigurationError } from "../errors.js";
import { toolJsonSchema } from "../models/shared/messages.js";
import { ZOD3_ADVICE, zodSchemaKind } from "../zod-version.js";
import { closeObjects } from "./close-objects.js";
import type { OutputSchema, ProcessRequestOptions } from "./types.js";

/** Names every provider accepts for a response schema (the same rule as tool names). */
const SCHEMA_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const DEFAULT_NAME = "response";
const DEFAULT_REPAIRS = 1;
/** A runaway setting would loop on a model that cannot comply; ten repairs is already generous. */
const MAX_REPAIRS = 10;

/** A request's structured-output settings, checked once before anything is stored. */
export interface OutputSpec {
  schema: OutputSchema;
  /** What the adapters receive as `PromptRequest.output`. */
  request: StructuredOutputRequest;
  repairs: number;
}

const jsonSchemas = new WeakMap<object, Record<string, unknown>>();

/**
 * The JSON Schema of what the model must write: the schema's input side (the model's JSON is
 * what the schema parses), converted by the same code as tool input schemas, objects closed.
 */
function outputJsonSchema(schema: OutputSchema): Record<string, unknown> {
  let json = jsonSchemas.get(schema);
  if (!json) {
    json = closeObjects(
      toolJsonSchema({ name: "output", description: "", input_schema: schema, run: async () => undefined }),
    );
    jsonSchemas.set(schema, json);
  }
  return json;
}

/** Reads `output*` options; undefined when the request asks for no structured output. */
export function outputSpec(options: ProcessRequestOptions | undefined): OutputSpec | undefined {
  const schema: unknown = options?.output;
  if (schema === undefined) return undefined;
  if (zodSchemaKind(schema) === "zod3")
    throw new ConfigurationError(`processRequest(): output is a zod 3 schema. ${ZOD3_ADVICE}`);
  if (zodSchemaKind(schema) !== "zod4") {
    throw new ConfigurationError(
      `processRequest(): output must be a zod 4 schema such as z.object({ ... }); got ${schema === null ? "null" : typeof schema}.`,
    );
  }
  const name = options?.outputName ?? DEFAULT_NAME;
  if (typeof name !== "string" || !SCHEMA_NAME.test(name)) {
    throw new ConfigurationError(
      `processRequest(): outputName must be 1–64 letters, digits, "_" or "-"; got ${JSON.stringify(name)}.`,
    );
  }
  const repairs = options?.outputRepairs ?? DEFAULT_REPAIRS;
  if (!Number.isInteger(repairs) || repairs < 0 || repairs > MAX_REPAIRS) {
    throw new ConfigurationError(
      `processRequest(): outputRepairs must be a whole number from 0 to ${MAX_REPAIRS}; got ${String(repairs)}.`,
    );
  }
  const description = options?.outputDescription;
  if (description !== undefined && typeof description !== "string") {
    throw new ConfigurationError(`processRequest(): outputDescription must be a string; got ${typeof description}.`);
  }
  const typed = schema as OutputSchema;
  let json: Record<string, unknown>;
  try {
    json = outputJsonSchema(typed);
  } catch (error) {
    throw new ConfigurationError(
      `processRequest(): the output schema cannot be expressed as JSON Schema (${error instanceof Error ? error.message : String(error)}). Use plain objects, arrays, strings, numbers, booleans, enums and unions.`,
      { cause: error },
    );
  }
  const request: StructuredOutputRequest = { name, schema: json };
  if (description) request.description = description;
  return { schema: typed, request, repairs };
}
