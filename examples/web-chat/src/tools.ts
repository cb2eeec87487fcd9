/**
 * The bistro's tools. Each shows one feature of glove-server's display contract:
 * a form answered over HTTP, a card, and an action that needs the user's permission.
 * (The task list, `glove_update_tasks`, comes from the store: every glove-server store supports tasks.)
 */
import { z } from "zod";
import type { GloveFoldArgs } from "glove-core";
import { MENU, reservationSchema, type Booking, type MenuCard, type Reservation, type ReservationQuestion } from "./shared.js";

export { MENU, reservationSchema, type Booking, type Dish, type MenuCard, type Reservation } from "./shared.js";

/** A card pushed with pushAndForget; the result carries `renderData` for the UI (never shown to the model). */
export const showMenuTool: GloveFoldArgs<{ note?: string }> = {
  name: "show_menu",
  description: "Shows today's menu to the user as a card. Use it when the user asks about food or before booking.",
  inputSchema: z.object({ note: z.string().max(200).optional().describe("A short line shown under the menu") }),
  displayStrategy: "stay",
  async do(input, display) {
    const card: MenuCard = { title: "Today's menu", dishes: MENU, note: input.note ?? null };
    await display.pushAndForget({ input: card });
    return {
      status: "success",
      data: `Showed the menu: ${MENU.map((d) => `${d.name} (€${d.price})`).join(", ")}.`,
      renderData: card,
    };
  },
};

/** A form pushed with pushAndWait: the turn waits until someone answers it over HTTP (or aborts). */
export const reservationFormTool: GloveFoldArgs<ReservationQuestion> = {
  name: "reservation_form",
  description:
    "Asks the user for the booking details (name, number of guests, time) with a form, and waits for the answer. Call it before book_table.",
  inputSchema: z.object({
    question: z.string().min(1).max(300).describe("What to ask, shown above the form"),
    guests: z.number().int().min(1).max(12).optional().describe("A suggested number of guests, if the user said"),
  }),
  resolveSchema: reservationSchema,
  displayStrategy: "hide-on-complete",
  async do(input, display) {
    const answer = await display.pushAndWait<typeof input, Reservation>({ input });
    return { status: "success", data: answer, renderData: answer };
  },
};

/** An action with a side effect: glove-core asks the user first (a `permission_request` slot). */
export function bookTableTool(bookings: Map<string, Booking>): GloveFoldArgs<Reservation> {
  return {
    name: "book_table",
    description: "Books a table. Needs the user's permission. Call reservation_form first to get the details.",
    inputSchema: reservationSchema,
    requiresPermission: true,
    async do(input) {
      const code = `GB-${(1000 + bookings.size + 1).toString()}`;
      bookings.set(code, { ...input, code });
      return {
        status: "success",
        data: `Booked a table for ${input.guests} at ${input.time} under "${input.name}"; confirmation ${code}.`,
        renderData: { code, ...input } satisfies Booking,
      };
    },
  };
}
