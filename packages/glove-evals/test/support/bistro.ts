import { z } from "zod";
import { Glove, type PromptRequest } from "glove-core";
import { ScriptedModel, type ScriptedTurn } from "glove-core/testing";
import type { AgentFactory } from "glove-server";

export const reservation = z.object({ name: z.string().min(1), guests: z.number().int().min(1), time: z.string() });

/**
 * A small reservation agent for the tests. Its scripted model decides from the request alone (so
 * it needs no state and runs at any concurrency): ask with the form, book what the form returned
 * (a permission prompt), confirm. `careless` books an invented name without asking.
 */
export function bistroAgent(options: { careless?: boolean; failWith?: () => Error | undefined } = {}): AgentFactory {
  return ({ store }) =>
    new Glove({
      store,
      model: new ScriptedModel([], { fallback: (request) => nextTurn(request, options), record: false }),
      systemPrompt: "You book tables at the bistro.",
      builtIns: { tasks: false },
    })
      .fold({
        name: "reservation_form",
        description: "Asks for name, guests and time.",
        inputSchema: z.object({ question: z.string() }),
        resolveSchema: reservation,
        do: async (input, display) => ({ status: "success", data: await display.pushAndWait({ input }) }),
      })
      .fold({
        name: "book_table",
        description: "Books a table.",
        inputSchema: reservation,
        requiresPermission: true,
        do: async (input) => ({ status: "success", data: `Booked for ${input.name}, code GB-1` }),
      });
}

function nextTurn(
  request: PromptRequest,
  options: { careless?: boolean; failWith?: () => Error | undefined },
): ScriptedTurn {
  const error = options.failWith?.();
  if (error) return { error };
  const last = request.messages.at(-1)!;
  const result = last.tool_results?.[0];
  const text = last.text.toLowerCase();
  if (!result) {
    if (!text.includes("book")) return { text: `You said: ${last.text}` };
    if (options.careless)
      return { toolCalls: [{ name: "book_table", input: { name: "Guest", guests: 2, time: "19:00" } }] };
    return { toolCalls: [{ name: "reservation_form", input: { question: "Your booking details?" } }] };
  }
  if (result.tool_name === "reservation_form") {
    if (result.result.status !== "success") return { text: "No booking then." };
    return { toolCalls: [{ name: "book_table", input: result.result.data }] };
  }
  return { text: result.result.status === "success" ? "Your table is booked: GB-1." : "I could not book it." };
}
