/** Keywords whose value is one subschema. */
const ONE = ["items", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedItems"];
/** Keywords whose value is a list of subschemas. */
const LIST = ["anyOf", "oneOf", "allOf", "prefixItems"];
/** Keywords whose value maps names to subschemas. */
const MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A copy of `schema` in which every object that does not say otherwise has
 * `additionalProperties: false`. A zod object strips unknown keys anyway, so this only tells the
 * model what would be thrown away; providers' strict JSON modes (OpenAI, Anthropic) require it.
 * Loose objects and catch-alls keep the `additionalProperties` zod gave them.
 */
export function closeObjects(schema: Schema): Schema {
  const out: Schema = { ...schema };
  for (const key of ONE) if (isSchema(out[key])) out[key] = closeObjects(out[key]);
  for (const key of LIST) {
    const list = out[key];
    if (Array.isArray(list)) out[key] = list.map((s: unknown) => (isSchema(s) ? closeObjects(s) : s));
  }
  for (const key of MAP) {
    const map = out[key];
    if (!isSchema(map)) continue;
    const copy: Schema = {};
    for (const [name, sub] of Object.entries(map)) copy[name] = isSchema(sub) ? closeObjects(sub) : sub;
    out[key] = copy;
  }
  if (isSchema(out["additionalProperties"])) out["additionalProperties"] = closeObjects(out["additionalProperties"]);
  const isObject = out["type"] === "object" || (Array.isArray(out["type"]) && out["type"].includes("object"));
  if (isObject && !("additionalProperties" in out)) out["additionalProperties"] = false;
  return out;
}
