import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { z } from "zod";
import { closeObjects } from "../../src/structured-output/close-objects.js";

const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;

/** Every object node of a JSON Schema, wherever it sits. */
function objectNodes(node: unknown, out: Array<Record<string, unknown>> = []): Array<Record<string, unknown>> {
  if (Array.isArray(node)) node.forEach((n) => objectNodes(n, out));
  else if (node && typeof node === "object") {
    const record = node as Record<string, unknown>;
    if (record["type"] === "object") out.push(record);
    Object.values(record).forEach((v) => objectNodes(v, out));
  }
  return out;
}

describe("closeObjects", () => {
  it("closes every plain object: nested, in arrays, unions, tuples, records' values and $defs", () => {
    const Node: z.ZodType = z.object({
      name: z.string(),
      get children() {
        return z.array(Node);
      },
    });
    const schema = z.object({
      a: z.object({ b: z.object({ c: z.number() }) }),
      list: z.array(z.object({ x: z.string() })),
      either: z.union([z.object({ kind: z.literal("one") }), z.object({ kind: z.literal("two"), n: z.number() })]),
      pair: z.tuple([z.object({ p: z.boolean() }), z.string()]),
      byName: z.record(z.string(), z.object({ v: z.number() })),
      tree: Node,
    });
    const closed = closeObjects(json(schema));
    const nodes = objectNodes(closed);
    expect(nodes.length).toBeGreaterThanOrEqual(9);
    for (const node of nodes) {
      if ("properties" in node) expect(node["additionalProperties"]).toBe(false);
    }
    // A record keeps its value schema (closed) as additionalProperties.
    const byName = (closed["properties"] as Record<string, Record<string, unknown>>)["byName"]!;
    expect(byName["additionalProperties"]).toMatchObject({ type: "object", additionalProperties: false });
  });

  it("leaves loose objects and catch-alls as zod wrote them, and does not touch the input", () => {
    const input = json(
      z.object({ loose: z.looseObject({ a: z.string() }), extra: z.object({ a: z.string() }).catchall(z.number()) }),
    );
    const before = JSON.stringify(input);
    const closed = closeObjects(input);
    expect(JSON.stringify(input)).toBe(before);
    const props = closed["properties"] as Record<string, Record<string, unknown>>;
    expect(props["loose"]!["additionalProperties"]).toEqual({});
    expect(props["extra"]!["additionalProperties"]).toEqual({ type: "number" });
    expect(closed["additionalProperties"]).toBe(false);
  });

  it("is idempotent and only ever adds additionalProperties: false", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        if (!value || typeof value !== "object" || Array.isArray(value)) return;
        const once = closeObjects(value as Record<string, unknown>);
        expect(closeObjects(once)).toEqual(once);
        const strip = (n: unknown): unknown =>
          Array.isArray(n)
            ? n.map(strip)
            : n && typeof n === "object"
              ? Object.fromEntries(
                  Object.entries(n)
                    .filter(([k, v]) => !(k === "additionalProperties" && v === false))
                    .map(([k, v]) => [k, strip(v)]),
                )
              : n;
        expect(strip(once)).toEqual(strip(value));
      }),
    );
  });
});
