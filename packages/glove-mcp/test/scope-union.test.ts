import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { coversScope, scopeWords, unionScope } from "../src/scope-union.js";

// The one union both step-up paths use: the authProvider wrapper and runMcpOAuth / beginMcpOAuth.
const word = fc.stringMatching(/^[a-z:._-]{1,8}$/);
const scope = fc.option(
  fc.array(word, { maxLength: 5 }).chain((words) => fc.constantFrom(" ", "  ", "\t").map((gap) => words.join(gap))),
  { nil: undefined },
);

describe("unionScope", () => {
  it("holds every word of every scope once, the first scope's words first", () => {
    fc.assert(
      fc.property(fc.array(scope, { maxLength: 4 }), (scopes) => {
        const union = unionScope(...scopes);
        const words = scopeWords(union);
        const all = scopes.flatMap(scopeWords);
        expect(new Set(words)).toEqual(new Set(all));
        expect(words).toHaveLength(new Set(words).size);
        expect(union === undefined).toBe(all.length === 0);
        const leading = [...new Set(scopeWords(scopes[0]))];
        expect(words.slice(0, leading.length)).toEqual(leading);
      }),
    );
  });

  it("covers what it joined, and nothing covers a word it lacks", () => {
    fc.assert(
      fc.property(scope, scope, word, (a, b, extra) => {
        const union = unionScope(a, b);
        expect(coversScope(union, a) && coversScope(union, b)).toBe(true);
        expect(coversScope(union, extra)).toBe(scopeWords(union).includes(extra));
        expect(coversScope(undefined, undefined)).toBe(true);
      }),
    );
  });

  it("puts the challenged scope first, then the held one", () => {
    expect(unionScope("mcp mcp:admin", "mcp:tools mcp")).toBe("mcp mcp:admin mcp:tools");
  });
});
