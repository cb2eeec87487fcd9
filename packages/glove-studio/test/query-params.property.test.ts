/** The list's query string parser: any input gives a query the inspector accepts, or a typed 400. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HttpError } from "glove-server";
import { conversationQuery } from "../src/api/query-params.js";

const NAMES = ["text", "agent", "owner", "status", "updatedFrom", "updatedTo", "limit", "cursor", "other"];

describe("conversationQuery", () => {
  it("returns a well-formed query or throws a 400 naming the parameter", () => {
    const value = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom(
        "running",
        "waiting",
        "error",
        "idle",
        "2026-11-26",
        "2026-11-26T10:00:00Z",
        "50",
        "0",
        "201",
        "1e3",
        " ",
      ),
      fc.string({ minLength: 190, maxLength: 260 }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...NAMES), value), { maxLength: 8 }), (pairs) => {
        const params = new URLSearchParams(pairs);
        let query;
        try {
          query = conversationQuery(params);
        } catch (error) {
          expect(HttpError.isInstance(error)).toBe(true);
          expect((error as HttpError).status).toBe(400);
          expect(NAMES).toContain((error as HttpError).issues?.[0]?.path);
          return;
        }
        expect(Number.isInteger(query.limit) && query.limit >= 1 && query.limit <= 200).toBe(true);
        if (query.status !== undefined) expect(["running", "waiting", "error", "idle"]).toContain(query.status);
        for (const bound of [query.updatedFrom, query.updatedTo])
          if (bound !== undefined) expect(new Date(bound).toISOString()).toBe(bound);
        for (const text of [query.text, query.agent, query.owner])
          if (text !== undefined) expect(text.length).toBeGreaterThan(0);
        // The first value of a repeated parameter is the one used, as URLSearchParams.get gives it.
        const limit = params.get("limit");
        if (limit && limit.trim() !== "") expect(query.limit).toBe(Number(limit.trim()));
        // A bare date as "to" takes in that whole UTC day.
        if (params.get("updatedTo")?.trim() === "2026-11-26") expect(query.updatedTo).toBe("2026-11-26T23:59:59.999Z");
      }),
      { numRuns: 500 },
    );
  });
});
