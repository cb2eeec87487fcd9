/**
 * What the server's tools and the browser's views agree on: the menu, and each tool's schemas
 * (glove-react's `ToolSchemas`). The server folds `defineTool({ ...schemas, do })` (src/tools.ts),
 * the page draws `defineToolView({ ...schemas, render })` (ui/src/renderers.tsx). Browser-safe: zod
 * only, so nothing of the tools' server code reaches the page.
 */
import { z } from "zod";
import type { ToolSchemas } from "glove-react";

const dishSchema = z.object({ name: z.string(), price: z.number() });
export type Dish = z.infer<typeof dishSchema>;

export const MENU: Dish[] = [
  { name: "Leek and potato soup", price: 7 },
  { name: "Mushroom risotto", price: 16 },
  { name: "Grilled trout, lemon butter", price: 21 },
  { name: "Tarte tatin", price: 8 },
];

/** What show_menu pushes (and returns as renderData). */
const menuCardSchema = z.object({ title: z.string(), dishes: z.array(dishSchema), note: z.string().nullable() });
export type MenuCard = z.infer<typeof menuCardSchema>;

/** A card pushed with pushAndForget; the result carries the card as `renderData` for the page. */
export const showMenuSchemas = {
  name: "show_menu",
  description: "Shows today's menu to the user as a card. Use it when the user asks about food or before booking.",
  inputSchema: z.object({ note: z.string().max(200).optional().describe("A short line shown under the menu") }),
  displayPropsSchema: menuCardSchema,
  renderDataSchema: menuCardSchema,
  displayStrategy: "stay",
} satisfies ToolSchemas;

/** What the reservation form's answer must be (checked by the server before the tool sees it). */
export const reservationSchema = z.object({
  name: z.string().trim().min(1, "Enter a name for the booking").max(80),
  guests: z.number().int().min(1, "At least one guest").max(12, "Twelve guests at most; call us for groups"),
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Use a 24-hour time like 19:30"),
});
export type Reservation = z.infer<typeof reservationSchema>;

/** What reservation_form pushes: its own input. */
const reservationQuestionSchema = z.object({
  question: z.string().min(1).max(300).describe("What to ask, shown above the form"),
  guests: z.number().int().min(1).max(12).optional().describe("A suggested number of guests, if the user said"),
});
export type ReservationQuestion = z.infer<typeof reservationQuestionSchema>;

/** A form pushed with pushAndWait: the turn waits until someone answers it over HTTP (or aborts). */
export const reservationFormSchemas = {
  name: "reservation_form",
  description:
    "Asks the user for the booking details (name, number of guests, time) with a form, and waits for the answer. Call it before book_table.",
  inputSchema: reservationQuestionSchema,
  displayPropsSchema: reservationQuestionSchema,
  resolveSchema: reservationSchema,
  renderDataSchema: reservationSchema,
  displayStrategy: "hide-on-complete",
} satisfies ToolSchemas;

/** book_table's renderData. */
const bookingSchema = reservationSchema.extend({ code: z.string() });
export type Booking = z.infer<typeof bookingSchema>;

/** An action with a side effect; the server's definition asks the user's permission first. */
export const bookTableSchemas = {
  name: "book_table",
  description: "Books a table. Needs the user's permission. Call reservation_form first to get the details.",
  inputSchema: reservationSchema,
  renderDataSchema: bookingSchema,
} satisfies ToolSchemas;

/**
 * Two general-purpose renderers the UI knows by name, for any server tool to push
 * (`display.pushAndWait({ renderer: "choice", input })`): a question with buttons, and a card.
 */
export interface ChoiceInput {
  question: string;
  options: string[];
}
export interface NoticeInput {
  title: string;
  text?: string;
}

export const SUGGESTIONS = [
  "What can you do?",
  "Show me the menu",
  "Book a table for two tonight",
  "Put me on the waitlist for Friday",
];
