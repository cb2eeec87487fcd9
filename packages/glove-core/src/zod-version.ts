/**
 * Which zod a schema object comes from, told apart by shape rather than by
 * `instanceof`, so it works across copies of zod: zod 4 schemas (from "zod" 4.x,
 * or "zod/v4" in zod 3.25) carry a `_zod` property; zod 3 schemas (from "zod"
 * 3.x, or "zod/v3" in zod 4) carry `_def` and no `_zod`.
 */
export type ZodSchemaKind = "zod4" | "zod3" | "not-zod";

export function zodSchemaKind(value: unknown): ZodSchemaKind {
  if (typeof value !== "object" || value === null) return "not-zod";
  if ("_zod" in value) return "zod4";
  if ("_def" in value && typeof (value as { safeParse?: unknown }).safeParse === "function") return "zod3";
  return "not-zod";
}

/** The advice shown when a zod 3 schema reaches Glove. */
export const ZOD3_ADVICE =
  'Glove needs zod 4 schemas: install zod@^4 and use its "zod" entry (with zod 3.25, the "zod/v4" entry). Schemas built with zod 3 or "zod/v3" are not supported.';
