import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { elicitationAnswerSchema, elicitationContentSchema, type McpElicitationInput } from "glove-mcp";

type Requested = McpElicitationInput["requestedSchema"];

describe("elicitation answer schemas", () => {
  it("integers: accepted exactly when whole and within [minimum, maximum]", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -50, max: 50 }),
        fc.integer({ min: 0, max: 40 }),
        fc.oneof(fc.integer({ min: -200, max: 200 }), fc.double({ min: -200, max: 200, noNaN: true })),
        (min, span, n) => {
          const schema = elicitationContentSchema({
            type: "object",
            properties: { n: { type: "integer", minimum: min, maximum: min + span } },
            required: ["n"],
          });
          const ok = Number.isInteger(n) && n >= min && n <= min + span;
          expect(schema.safeParse({ n }).success).toBe(ok);
        },
      ),
    );
  });

  it("strings: length bounds and enums", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.nat(5), fc.nat(5), (s, min, extra) => {
        const schema = elicitationContentSchema({
          type: "object",
          properties: { s: { type: "string", minLength: min, maxLength: min + extra } },
          required: ["s"],
        });
        // zod measures UTF-16 code units, as JSON Schema validators in JS do.
        expect(schema.safeParse({ s }).success).toBe(s.length >= min && s.length <= min + extra);
      }),
    );
    const choice = elicitationContentSchema({
      type: "object",
      properties: {
        c: {
          type: "string",
          oneOf: [
            { const: "a", title: "A" },
            { const: "b", title: "B" },
          ],
        },
      },
      required: ["c"],
    } as Requested);
    fc.assert(
      fc.property(fc.string({ maxLength: 3 }), (c) => {
        expect(choice.safeParse({ c }).success).toBe(c === "a" || c === "b");
      }),
    );
  });

  it("applies defaults to omitted fields, lets optional ones be left out, refuses unknown fields", () => {
    const requested: Requested = {
      type: "object",
      properties: {
        name: { type: "string", default: "John Doe" },
        age: { type: "integer", default: 30 },
        ok: { type: "boolean", default: true },
        note: { type: "string" },
      },
    };
    const schema = elicitationContentSchema(requested);
    expect(schema.parse({})).toEqual({ name: "John Doe", age: 30, ok: true });
    expect(schema.parse({ name: "Ada" })).toEqual({ name: "Ada", age: 30, ok: true });
    expect(schema.safeParse({ extra: 1 }).success).toBe(false);
  });

  it("answers: accept needs valid content; decline and cancel carry none", () => {
    const answer = elicitationAnswerSchema({
      type: "object",
      properties: { email: { type: "string", format: "email" } },
      required: ["email"],
    });
    expect(answer.safeParse({ action: "accept", content: { email: "a@b.co" } }).success).toBe(true);
    expect(answer.safeParse({ action: "accept", content: { email: "nope" } }).success).toBe(false);
    expect(answer.safeParse({ action: "decline" }).success).toBe(true);
    expect(answer.safeParse({ action: "cancel" }).success).toBe(true);
    expect(answer.safeParse({ action: "maybe" }).success).toBe(false);
  });
});
