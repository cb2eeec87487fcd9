import { z } from "zod";
import type { McpElicitationInput } from "./types.js";

type RequestedSchema = McpElicitationInput["requestedSchema"];
type PropertySchema = RequestedSchema["properties"][string];

const FORMATS: Record<string, () => z.ZodType<string, string>> = {
  email: () => z.email(),
  uri: () => z.url(),
  date: () => z.iso.date(),
  "date-time": () => z.iso.datetime({ offset: true }),
};

/** The allowed values of a single- or multi-select property, whichever spelling the server used. */
function enumValues(schema: Record<string, unknown>): string[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum.map(String);
  const options = (schema.oneOf ?? schema.anyOf) as Array<{ const?: unknown }> | undefined;
  if (Array.isArray(options)) return options.map((o) => String(o.const));
  return undefined;
}

function stringSchema(p: Record<string, unknown>): z.ZodType {
  const values = enumValues(p);
  if (values && values.length > 0) return z.enum(values as [string, ...string[]]);
  let s = z.string();
  if (typeof p.minLength === "number") s = s.min(p.minLength);
  if (typeof p.maxLength === "number") s = s.max(p.maxLength);
  const format = typeof p.format === "string" ? FORMATS[p.format] : undefined;
  return format ? s.pipe(format()) : s;
}

function numberSchema(p: Record<string, unknown>, integer: boolean): z.ZodType {
  let n = integer ? z.number().int() : z.number();
  if (typeof p.minimum === "number") n = n.min(p.minimum);
  if (typeof p.maximum === "number") n = n.max(p.maximum);
  return n;
}

function arraySchema(p: Record<string, unknown>): z.ZodType {
  const values = enumValues((p.items ?? {}) as Record<string, unknown>);
  let a = z.array(values && values.length > 0 ? z.enum(values as [string, ...string[]]) : z.string());
  if (typeof p.minItems === "number") a = a.min(p.minItems);
  if (typeof p.maxItems === "number") a = a.max(p.maxItems);
  return a;
}

function propertySchema(property: PropertySchema): z.ZodType {
  const p = property as Record<string, unknown>;
  switch (p.type) {
    case "string":
      return stringSchema(p);
    case "number":
      return numberSchema(p, false);
    case "integer":
      return numberSchema(p, true);
    case "boolean":
      return z.boolean();
    case "array":
      return arraySchema(p);
    default:
      // Outside the spec's restricted subset: accept any primitive rather than block the user.
      return z.union([z.string(), z.number(), z.boolean()]);
  }
}

/**
 * The zod schema an accepted elicitation's `content` must match. Omitted fields get the schema's
 * `default` (SEP-1034); fields neither required nor defaulted may be left out; unknown fields are
 * refused so a UI cannot send the server more than it asked for.
 */
export function elicitationContentSchema(requested: RequestedSchema): z.ZodType<Record<string, unknown>> {
  const required = new Set(requested.required ?? []);
  const shape: Record<string, z.ZodType> = {};
  for (const [name, property] of Object.entries(requested.properties ?? {})) {
    const base = propertySchema(property);
    const fallback = (property as { default?: unknown }).default;
    shape[name] =
      fallback !== undefined ? base.default(fallback as never) : required.has(name) ? base : base.optional();
  }
  return z.strictObject(shape) as unknown as z.ZodType<Record<string, unknown>>;
}

/** The answers an `mcp_elicitation` slot accepts: accept + valid content, decline, or cancel. */
export function elicitationAnswerSchema(requested: RequestedSchema): z.ZodType {
  return z.discriminatedUnion("action", [
    z.object({ action: z.literal("accept"), content: elicitationContentSchema(requested) }),
    z.object({ action: z.literal("decline") }),
    z.object({ action: z.literal("cancel") }),
  ]);
}

/** Zod issues as `{ path, message }` (path dotted, "(root)" for the answer itself). */
export function describeIssues(error: z.ZodError): Array<{ path: string; message: string }> {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join(".") || "(root)", message: issue.message }));
}
