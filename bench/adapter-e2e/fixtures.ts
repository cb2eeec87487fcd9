import { z } from "zod";

export const SYSTEM_PROMPT = "You are a stock assistant. Use the lookup tool for every item before answering.";
export const USER_REQUEST = "Are items 1, 2 and 3 in stock?";
export const lookupSchema = z.object({ query: z.string() });
export const LOOKUP_DESCRIPTION = "Look an item up in the inventory.";

/** The tool both loops run: same input, same output. */
export function runLookup(input: { query: string }): {
  status: "success";
  data: { query: string; inStock: boolean; quantity: number };
} {
  return { status: "success", data: { query: input.query, inStock: true, quantity: input.query.length * 7 } };
}
