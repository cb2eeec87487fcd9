/**
 * The bistro's tools, as the server runs them: each one's `do` on the schemas it shares with the
 * page (src/shared.ts). Each shows one feature of glove-server's display contract: a form answered
 * over HTTP, a card, and an action that needs the user's permission. (The task list,
 * `glove_update_tasks`, comes from the store: every glove-server store supports tasks.)
 */
import { defineTool } from "glove-react";
import { MENU, bookTableSchemas, reservationFormSchemas, showMenuSchemas, type Booking } from "./shared.js";

export { MENU, reservationSchema, type Booking, type Dish, type MenuCard, type Reservation } from "./shared.js";

/** A card pushed with pushAndForget; the result carries `renderData` for the UI (never shown to the model). */
export const showMenuTool = defineTool({
  ...showMenuSchemas,
  async do(input, display) {
    const card = { title: "Today's menu", dishes: MENU, note: input.note ?? null };
    await display.pushAndForget(card);
    return {
      status: "success",
      data: `Showed the menu: ${MENU.map((d) => `${d.name} (€${d.price})`).join(", ")}.`,
      renderData: card,
    };
  },
});

/** A form pushed with pushAndWait: the turn waits until someone answers it over HTTP (or aborts). */
export const reservationFormTool = defineTool({
  ...reservationFormSchemas,
  async do(input, display) {
    const answer = await display.pushAndWait(input);
    return { status: "success", data: answer, renderData: answer };
  },
});

/** An action with a side effect: glove-core asks the user first (a `permission_request` slot). */
export function bookTableTool(bookings: Map<string, Booking>) {
  return defineTool({
    ...bookTableSchemas,
    requiresPermission: true,
    async do(input) {
      const code = `GB-${(1000 + bookings.size + 1).toString()}`;
      bookings.set(code, { ...input, code });
      return {
        status: "success",
        data: `Booked a table for ${input.guests} at ${input.time} under "${input.name}"; confirmation ${code}.`,
        renderData: { code, ...input },
      };
    },
  });
}
