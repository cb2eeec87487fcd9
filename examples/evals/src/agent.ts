import { z } from "zod";
import { Glove, type PromptRequest } from "glove-core";
import { ScriptedModel, type ScriptedTurn } from "glove-core/testing";
import type { AgentFactory } from "glove-server";

/** What the reservation form collects, as the web-chat demo's bistro does. */
export const reservation = z.object({
  name: z.string().trim().min(1),
  guests: z.number().int().min(1).max(12),
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
});

export const SYSTEM_PROMPT =
  "You are the reservation assistant of Glove Bistro. To book: call reservation_form to collect the name, number of guests and time, then book_table with exactly what the form returned (the user is asked for permission).";

/**
 * The bistro's agent factory, the function a glove-server would serve. Offline, its model is a
 * script that follows the prompt; `model` swaps in another (a provider adapter in real life).
 */
export function bistroAgent(bookings: string[] = []): AgentFactory {
  return ({ store }) =>
    new Glove({ store, model: followsThePrompt(), systemPrompt: SYSTEM_PROMPT, builtIns: { tasks: false } })
      .fold({
        name: "reservation_form",
        description: "Asks the user for the booking details with a form and waits for the answer.",
        inputSchema: z.object({ question: z.string() }),
        resolveSchema: reservation,
        displayStrategy: "hide-on-complete",
        do: async (input, display) => ({ status: "success", data: await display.pushAndWait({ input }) }),
      })
      .fold({
        name: "book_table",
        description: "Books a table. Needs the user's permission.",
        inputSchema: reservation,
        requiresPermission: true,
        do: async (input) => {
          bookings.push(`${input.name} ×${input.guests} at ${input.time}`);
          return {
            status: "success",
            data: `Booked under "${input.name}"; confirmation GB-${1000 + bookings.length}.`,
          };
        },
      });
}

/** A scripted model that does what the prompt says: form, then book, then confirm. */
export function followsThePrompt(): ScriptedModel {
  return new ScriptedModel([], { name: "scripted", record: false, fallback: (request) => careful(request) });
}

/** A scripted model that books at once with details it made up (the regression to catch). */
export function skipsTheForm(): ScriptedModel {
  return new ScriptedModel([], {
    name: "scripted",
    record: false,
    fallback: (request) =>
      request.messages.at(-1)!.tool_results?.length
        ? { text: "Your table is booked." }
        : { toolCalls: [{ name: "book_table", input: { name: "Guest", guests: 2, time: "19:00" } }] },
  });
}

function careful(request: PromptRequest): ScriptedTurn {
  const last = request.messages.at(-1)!;
  const result = last.tool_results?.[0];
  if (!result) {
    return /book|table/i.test(last.text)
      ? {
          toolCalls: [{ name: "reservation_form", input: { question: "Who is the booking for, how many, and when?" } }],
        }
      : { text: "I can book you a table: just ask." };
  }
  if (result.tool_name === "reservation_form") {
    return result.result.status === "success"
      ? { toolCalls: [{ name: "book_table", input: result.result.data }] }
      : { text: "No problem, nothing was booked." };
  }
  return {
    text: result.result.status === "success" ? `Done: ${String(result.result.data)}` : "I did not book the table.",
  };
}
