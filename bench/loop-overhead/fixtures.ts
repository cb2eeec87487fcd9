import { z } from "zod";
import type { Message, ToolCall } from "glove-core";

/** Conversation lengths measured. */
export const LENGTHS = [10, 100, 1000] as const;

/** Fixed token counts per turn, so the scripted model never sizes the request. */
export const TOKENS_IN = 1200;
export const TOKENS_OUT = 40;

export const SYSTEM_PROMPT = "You are a helpful assistant for a small bookshop. Use the tools to look things up.";

// ── Tools: the same zod schemas and bodies for both loops ──────────────────────────────────

export const searchSchema = z.object({
  query: z.string().min(1),
  limit: z.number().int().positive().max(50),
  inStockOnly: z.boolean().optional(),
});
export type SearchInput = z.infer<typeof searchSchema>;

export const priceSchema = z.object({ isbn: z.string().regex(/^[0-9-]{10,17}$/) });
export type PriceInput = z.infer<typeof priceSchema>;

export function runSearch(input: SearchInput): { hits: Array<{ title: string; isbn: string }>; total: number } {
  return {
    hits: [
      { title: `Results for ${input.query}`, isbn: "978-0-00-000001-1" },
      { title: "A Second Book", isbn: "978-0-00-000002-8" },
    ],
    total: Math.min(input.limit, 2),
  };
}

export function runPrice(input: PriceInput): { isbn: string; price: number } {
  return { isbn: input.isbn, price: 12.5 };
}

// ── The scripted turns: one tool turn, then one text turn ──────────────────────────────────

export const SEARCH_INPUT = { query: "oat milk cookbook", limit: 5 };
export const TOOL_TURN_TEXT = "Let me look that up.";
export const TEXT_TURN_TEXT = "I found two books matching your request; the first one is in stock.";
export const USER_REQUEST = "Do you have a cookbook about oat milk?";

// ── Pre-populated history: user text, agent tool call, tool result, agent text ─────────────

export function makeHistory(length: number): Message[] {
  const out: Message[] = [];
  for (let i = 0; length - out.length >= 2; i++) {
    const question: Message = { sender: "user", text: `Question number ${i}: what do you have about topic ${i}?` };
    const answer: Message = {
      sender: "agent",
      text: `Here is what I found about topic ${i}: two books, both in stock.`,
    };
    if (length - out.length < 4) {
      out.push(question, answer); // a plain exchange fills the remainder
      continue;
    }
    const call: ToolCall = { tool_name: "search", input_args: { query: `topic ${i}`, limit: 5 }, id: `hist_${i}` };
    const data = runSearch(call.input_args as SearchInput);
    out.push(
      question,
      { sender: "agent", text: TOOL_TURN_TEXT, tool_calls: [call] },
      {
        sender: "user",
        text: "",
        tool_results: [{ tool_name: "search", call_id: call.id, result: { status: "success", data } }],
      },
      answer,
    );
  }
  return out;
}
