/**
 * What the server's tools and the browser's renderers agree on: the menu, the reservation
 * schema and the shapes of what the tools push and return. Browser-safe (zod only), so the UI
 * (ui/src) imports it too.
 */
import { z } from "zod";

export interface Dish {
  name: string;
  price: number;
}

export const MENU: Dish[] = [
  { name: "Leek and potato soup", price: 7 },
  { name: "Mushroom risotto", price: 16 },
  { name: "Grilled trout, lemon butter", price: 21 },
  { name: "Tarte tatin", price: 8 },
];

/** What the reservation form's answer must be (checked by the server before the tool sees it). */
export const reservationSchema = z.object({
  name: z.string().trim().min(1, "Enter a name for the booking").max(80),
  guests: z.number().int().min(1, "At least one guest").max(12, "Twelve guests at most; call us for groups"),
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Use a 24-hour time like 19:30"),
});
export type Reservation = z.infer<typeof reservationSchema>;

/** What show_menu pushes (and returns as renderData). */
export interface MenuCard {
  title: string;
  dishes: Dish[];
  note: string | null;
}

/** What reservation_form pushes. */
export interface ReservationQuestion {
  question: string;
  guests?: number;
}

/** book_table's renderData. */
export interface Booking extends Reservation {
  code: string;
}

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

export const SUGGESTIONS = ["What can you do?", "Show me the menu", "Book a table for two tonight", "Put me on the waitlist for Friday"];
