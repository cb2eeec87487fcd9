import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { z } from "zod";
import { extractJson } from "glove-core";
import { checkAnswer } from "../../src/structured-output/parse-answer.js";

/** Prose a model might put around its JSON: no brackets, braces or backticks of its own. */
const prose = fc.string({ maxLength: 40 }).map((s) => s.replace(/[[\]{}`]/g, ""));
/** Containers only: a bare string or number inside prose cannot be told apart from the prose. */
const container = fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.jsonValue()));

describe("extractJson", () => {
  it("reads any JSON value sent bare, with surrounding whitespace", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom("", " ", "\n", "\t\n "), (value, pad) => {
        expect(extractJson(pad + JSON.stringify(value) + pad)).toEqual({ value: JSON.parse(JSON.stringify(value)) });
      }),
    );
  });

  it("reads an object or array wrapped in a code fence and prose", () => {
    fc.assert(
      fc.property(
        container,
        prose,
        prose,
        fc.constantFrom("json", "JSON", ""),
        fc.boolean(),
        (value, before, after, lang, pretty) => {
          const json = JSON.stringify(value, null, pretty ? 2 : undefined);
          const text = `${before}\n\`\`\`${lang}\n${json}\n\`\`\`\n${after}`;
          expect(extractJson(text)).toEqual({ value: JSON.parse(json) });
        },
      ),
    );
  });

  it("reads an object or array after a sentence without a fence", () => {
    fc.assert(
      fc.property(container, prose, prose, (value, before, after) => {
        const json = JSON.stringify(value);
        expect(extractJson(`${before} ${json} ${after}`)).toEqual({ value: JSON.parse(json) });
      }),
    );
  });

  it("never throws, and finds nothing in text without JSON", () => {
    fc.assert(fc.property(fc.string(), (text) => void extractJson(text)));
    expect(extractJson("")).toBeUndefined();
    expect(extractJson("I don't know.")).toBeUndefined();
    expect(extractJson("{ not: json }")).toBeUndefined();
  });
});

describe("checkAnswer", () => {
  const schema = z.object({ n: z.number().int(), tags: z.array(z.string()) });

  it("accepts exactly the values the schema accepts", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const check = checkAnswer(JSON.stringify(value), schema);
        expect(check.ok).toBe(schema.safeParse(value).success);
        if (!check.ok) expect(check.issues.length).toBeGreaterThan(0);
      }),
    );
  });

  it("reports paths and zod codes for a mismatch and invalid_json for non-JSON", () => {
    const mismatch = checkAnswer('{"n": 1.5, "tags": [1]}', schema);
    expect(mismatch).toMatchObject({ ok: false, reason: "schema_mismatch" });
    expect(!mismatch.ok && mismatch.issues.map((i) => [i.path.join("."), i.code])).toEqual([
      ["n", "invalid_type"],
      ["tags.0", "invalid_type"],
    ]);
    const notJson = checkAnswer("sure!", schema);
    expect(notJson).toMatchObject({ ok: false, reason: "invalid_json", issues: [{ path: [], code: "invalid_json" }] });
    expect(checkAnswer("   ", schema)).toMatchObject({
      ok: false,
      issues: [{ message: expect.stringContaining("empty") }],
    });
  });
});
