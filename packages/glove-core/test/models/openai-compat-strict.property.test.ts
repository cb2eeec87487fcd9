/**
 * Property: the OpenAI-compatible adapter asks for `strict: true` exactly when the output schema
 * fits strict mode (every object closed, every property required, no oneOf/allOf/…), so a zod
 * schema with an `.optional()` field, a record or a discriminated union anywhere is sent with
 * `strict: false` instead of being refused by the provider. The oracle is how the schema was
 * generated, not the adapter's own check.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { PromptRequest } from "glove-core";
import { OpenAICompatAdapter } from "glove-core/models/openai-compat";
import { outputSpec } from "../../src/structured-output/output-spec.js";

/** A generated zod schema and whether strict mode can take it, known from how it was built. */
interface Gen {
  schema: z.ZodType;
  strictable: boolean;
}

const leaf: fc.Arbitrary<Gen> = fc.constantFrom<Gen>(
  { schema: z.string(), strictable: true },
  { schema: z.number().int(), strictable: true },
  { schema: z.boolean(), strictable: true },
  { schema: z.enum(["a", "b"]), strictable: true },
  { schema: z.string().nullable(), strictable: true },
);

/** Mostly required fields, so strict-ready schemas are common enough to test both sides. */
const optional = fc.integer({ min: 0, max: 5 }).map((n) => n === 0);
const names = fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9_]{0,7}$/), { minLength: 1, maxLength: 4 });

function objectOf(keys: string[], fields: Array<[Gen, boolean]>): Gen {
  const shape: Record<string, z.ZodType> = {};
  let strictable = true;
  keys.forEach((key, i) => {
    const [field, optional] = fields[i]!;
    shape[key] = optional ? field.schema.optional() : field.schema;
    strictable &&= field.strictable && !optional;
  });
  return { schema: z.object(shape), strictable };
}

const arrayOf = (item: Gen): Gen => ({ schema: z.array(item.schema), strictable: item.strictable });
/** A plain union is an anyOf, which strict mode takes below the root. */
const union = ([a, b]: [Gen, Gen]): Gen => ({
  schema: z.union([a.schema, b.schema]),
  strictable: a.strictable && b.strictable,
});
/** A record's additionalProperties is a schema: never strict. */
const record = (value: Gen): Gen => ({ schema: z.record(z.string(), value.schema), strictable: false });
/** A discriminated union is a oneOf: never strict. */
function tagged([a, b]: [Gen, Gen]): Gen {
  const left = z.object({ kind: z.literal("left"), value: a.schema });
  const right = z.object({ kind: z.literal("right"), value: b.schema });
  return { schema: z.discriminatedUnion("kind", [left, right]), strictable: false };
}

const { node } = fc.letrec<{ node: Gen; object: Gen }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { arbitrary: leaf, weight: 4 },
    { arbitrary: tie("object"), weight: 2 },
    { arbitrary: tie("object").map(arrayOf), weight: 2 },
    { arbitrary: fc.tuple(tie("node"), tie("node")).map(union), weight: 1 },
    { arbitrary: tie("node").map(record), weight: 1 },
    { arbitrary: fc.tuple(tie("object"), tie("object")).map(tagged), weight: 1 },
  ),
  object: fc
    .tuple(names, fc.array(fc.tuple(tie("node"), optional), { minLength: 4, maxLength: 4 }))
    .map(([keys, fields]) => objectOf(keys, fields)),
}));

/** A generated raw JSON Schema and whether strict mode can take it. */
interface RawGen {
  schema: Record<string, unknown>;
  strictable: boolean;
}

const rawLeaf = fc.constantFrom<RawGen>(
  { schema: { type: "string" }, strictable: true },
  { schema: { type: ["integer", "null"] }, strictable: true },
  { schema: { enum: ["a", "b"] }, strictable: true },
  { schema: { $ref: "#/$defs/D" }, strictable: true },
);

/** How an object closes: only `false` is strict (absent, `true` and a schema leave it open). */
const closing: fc.Arbitrary<{ value?: unknown; closed: boolean }> = fc.oneof(
  { arbitrary: fc.constant({ value: false, closed: true }), weight: 12 },
  {
    arbitrary: fc.constantFrom(
      { closed: false },
      { value: true, closed: false },
      { value: { type: "string" }, closed: false },
    ),
    weight: 1,
  },
);

const { rawNode } = fc.letrec<{ rawNode: RawGen; rawObject: RawGen }>((tie) => ({
  rawNode: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { arbitrary: rawLeaf, weight: 12 },
    { arbitrary: tie("rawObject"), weight: 6 },
    {
      arbitrary: tie("rawNode").map((item) => ({
        schema: { type: "array", items: item.schema },
        strictable: item.strictable,
      })),
      weight: 3,
    },
    {
      arbitrary: fc
        .tuple(tie("rawNode"), tie("rawNode"))
        .map(([a, b]) => ({ schema: { anyOf: [a.schema, b.schema] }, strictable: a.strictable && b.strictable })),
      weight: 3,
    },
    {
      arbitrary: fc
        .tuple(tie("rawNode"), tie("rawNode"))
        .map(([a, b]) => ({ schema: { oneOf: [a.schema, b.schema] }, strictable: false })),
      weight: 1,
    },
  ),
  rawObject: fc
    .tuple(names, fc.array(tie("rawNode"), { minLength: 4, maxLength: 4 }), fc.integer({ min: 0, max: 5 }), closing)
    .map(([keys, fields, drop, close]) => rawObjectOf(keys, fields, drop, close)),
}));

/** An object schema; `drop` (when below the key count) leaves that property out of `required`. */
function rawObjectOf(
  keys: string[],
  fields: RawGen[],
  drop: number,
  close: { value?: unknown; closed: boolean },
): RawGen {
  const properties: Record<string, unknown> = {};
  keys.forEach((key, i) => (properties[key] = fields[i]!.schema));
  const schema: Record<string, unknown> = { type: "object", properties, required: keys.filter((_, i) => i !== drop) };
  if ("value" in close) schema["additionalProperties"] = close.value;
  const strictable = close.closed && drop >= keys.length && keys.every((_, i) => fields[i]!.strictable);
  return { schema, strictable };
}

/** A root object with a `$defs` entry `D` that leaves may point at. */
const rawRoot = fc
  .tuple(names, fc.array(rawNode, { minLength: 4, maxLength: 4 }), fc.integer({ min: 0, max: 8 }), closing, rawNode)
  .map(([keys, fields, drop, close, def]): RawGen => {
    const root = rawObjectOf(keys, fields, drop, close);
    return { schema: { ...root.schema, $defs: { D: def.schema } }, strictable: root.strictable && def.strictable };
  });

const adapter = new OpenAICompatAdapter({ model: "gpt-4.1-mini", apiKey: "sk-test", baseURL: "http://127.0.0.1:9/v1" });

/** The `strict` flag of the response_format the adapter would send for `output`. */
function strictSent(output: z.ZodType): unknown {
  const spec = outputSpec({ output: output as never })!;
  const request: PromptRequest = { messages: [{ sender: "user", text: "go" }], output: spec.request };
  const body = JSON.parse(adapter.buildBody(request)) as {
    response_format: { json_schema: { strict: unknown; schema: unknown } };
  };
  expect(body.response_format.json_schema.schema).toEqual(spec.request.schema);
  return body.response_format.json_schema.strict;
}

/** The `strict` flag sent for a raw JSON Schema. */
function strictOf(schema: Record<string, unknown>): unknown {
  const body = JSON.parse(
    adapter.buildBody({ messages: [{ sender: "user", text: "go" }], output: { name: "o", schema } }),
  ) as {
    response_format: { json_schema: { strict: unknown } };
  };
  return body.response_format.json_schema.strict;
}

describe("OpenAI-compatible structured output: strict only for schemas strict mode accepts", () => {
  it("any generated zod object schema: strict exactly when nothing optional, no record and no discriminated union", () => {
    const seen = { true: 0, false: 0 };
    const root = fc
      .tuple(names, fc.array(fc.tuple(node, optional), { minLength: 4, maxLength: 4 }))
      .map(([keys, fields]) => objectOf(keys, fields));
    fc.assert(
      fc.property(root, (gen) => {
        if (gen.strictable) seen.true++;
        else seen.false++;
        expect(strictSent(gen.schema)).toBe(gen.strictable);
      }),
      { numRuns: 300 },
    );
    // Both outcomes were exercised, not just the common one.
    expect(Math.min(seen.true, seen.false), JSON.stringify(seen)).toBeGreaterThan(30);
  });

  it("any generated raw JSON Schema (objects open or closed, partial required, anyOf/oneOf, $defs): strict exactly when every part fits", () => {
    const seen = { true: 0, false: 0 };
    fc.assert(
      fc.property(rawRoot, (gen) => {
        if (gen.strictable) seen.true++;
        else seen.false++;
        expect(strictOf(gen.schema)).toBe(gen.strictable);
      }),
      { numRuns: 400 },
    );
    expect(Math.min(seen.true, seen.false), JSON.stringify(seen)).toBeGreaterThan(40);
  });

  it("one optional field deep inside (object, array item, anyOf branch) turns strict off; the same schema all required keeps it", () => {
    const deep = (inner: z.ZodType) =>
      z.object({ a: z.array(z.union([z.string(), z.object({ b: z.object({ c: inner }) })])) });
    expect(strictSent(deep(z.object({ d: z.string() })))).toBe(true);
    expect(strictSent(deep(z.object({ d: z.string().optional() })))).toBe(false);
    expect(strictSent(z.object({ x: z.string().optional() }))).toBe(false);
    expect(strictSent(z.object({ x: z.string() }))).toBe(true);
  });

  it("raw JSON Schemas: a $defs entry, a non-object root or an open object is not strict", () => {
    const closed = {
      type: "object",
      properties: { p: { $ref: "#/$defs/P" } },
      required: ["p"],
      additionalProperties: false,
    };
    const P = { type: "object", properties: { q: { type: "string" } }, required: ["q"], additionalProperties: false };
    const send = strictOf;
    expect(send({ ...closed, $defs: { P } })).toBe(true);
    expect(send({ ...closed, $defs: { P: { ...P, required: [] } } })).toBe(false);
    expect(send({ ...closed, $defs: { P: { ...P, additionalProperties: true } } })).toBe(false);
    expect(send({ anyOf: [closed] })).toBe(false);
    expect(send({ type: "array", items: closed })).toBe(false);
    expect(send({ ...closed, allOf: [P] })).toBe(false);
    expect(send({ ...closed, type: ["object", "null"] })).toBe(false);
    expect(send({ type: "object", properties: {}, additionalProperties: false })).toBe(true);
  });
});
