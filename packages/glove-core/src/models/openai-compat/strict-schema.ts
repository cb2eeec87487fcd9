/**
 * Whether a JSON Schema can go to OpenAI's strict structured-output mode. Strict mode refuses
 * the whole request (HTTP 400) for a schema outside its subset, and zod's JSON Schema is often
 * outside it: an `.optional()` field is left out of `required`, a record keeps
 * `additionalProperties` as a schema, a discriminated union is a `oneOf`. Such schemas are sent
 * with `strict: false` instead: the provider still sees the schema, and Glove validates (and
 * repairs) the answer either way. Rewriting optional fields as required-and-nullable is not an
 * option: Glove's validation would then refuse the `null` the provider is made to send.
 */

type Schema = Record<string, unknown>;

/** Keywords strict mode does not accept anywhere (composition and conditional forms). */
const REFUSED = [
  "allOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "patternProperties",
];
/** Keywords whose value is one subschema. */
const ONE = ["items", "additionalProperties", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties"];
/** Keywords whose value is a list of subschemas. */
const LIST = ["anyOf", "prefixItems"];
/** Keywords whose value maps names to subschemas. */
const MAP = ["properties", "$defs", "definitions"];

const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const typeIncludes = (schema: Schema, type: string) =>
  schema["type"] === type || (Array.isArray(schema["type"]) && schema["type"].includes(type));

const checked = new WeakMap<Schema, boolean>();

/**
 * True when every object in `schema` (properties, items, anyOf branches, $defs… recursively) has
 * `additionalProperties: false` and lists all its properties in `required`, the root is an
 * object, and no refused keyword appears. Limits that vary by model (numeric and length
 * keywords, sizes) are left to the provider, which names the field it refuses.
 */
export function fitsStrictMode(schema: Schema): boolean {
  let fits = checked.get(schema);
  if (fits === undefined) {
    fits = isSchema(schema) && schema["type"] === "object" && !("anyOf" in schema) && subschemasFit(schema);
    checked.set(schema, fits);
  }
  return fits;
}

/** Walks with an explicit stack: a schema may nest deeper than the call stack allows. */
function subschemasFit(root: Schema): boolean {
  const stack: Schema[] = [root];
  const seen = new Set<Schema>();
  while (stack.length) {
    const schema = stack.pop()!;
    if (seen.has(schema)) continue;
    seen.add(schema);
    if (!nodeFits(schema)) return false;
    for (const key of ONE) if (isSchema(schema[key])) stack.push(schema[key]);
    for (const key of LIST) {
      const list = schema[key];
      if (Array.isArray(list)) for (const sub of list) if (isSchema(sub)) stack.push(sub);
    }
    for (const key of MAP) {
      const map = schema[key];
      if (isSchema(map)) for (const sub of Object.values(map)) if (isSchema(sub)) stack.push(sub);
    }
  }
  return true;
}

/** One schema node on its own: no refused keyword, and closed with every property required if it is an object. */
function nodeFits(schema: Schema): boolean {
  if (REFUSED.some((key) => key in schema)) return false;
  const properties = schema["properties"];
  if (!typeIncludes(schema, "object") && !isSchema(properties)) return true;
  if (schema["additionalProperties"] !== false) return false;
  if (properties === undefined) return true;
  if (!isSchema(properties)) return false;
  const required = schema["required"];
  if (!Array.isArray(required)) return Object.keys(properties).length === 0;
  const listed = new Set(required);
  return Object.keys(properties).every((name) => listed.has(name));
}
