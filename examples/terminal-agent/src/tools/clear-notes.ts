import type { GloveFoldArgs } from "glove-core";
import { z } from "zod";
import type { NotesFile } from "../notes-file.js";

/** Renderer name of the yes/no question the terminal UI answers. */
export const CONFIRM_RENDERER = "confirm";

export interface ConfirmInput {
  question: string;
}

const inputSchema = z.object({});

/** Asks the user through the display stack (`pushAndWait`) before removing every note. */
export function clearNotesTool(notes: NotesFile): GloveFoldArgs<z.infer<typeof inputSchema>> {
  return {
    name: "clear_notes",
    description: "Delete ALL of the user's notes. Asks the user to confirm in the UI first.",
    inputSchema,
    async do(_input, display) {
      const count = (await notes.list()).length;
      if (count === 0) return { status: "success", data: "There were no notes to clear." };
      const confirmed = await display.pushAndWait<ConfirmInput, boolean>({
        renderer: CONFIRM_RENDERER,
        input: { question: count === 1 ? "Delete your only note?" : `Delete all ${count} notes?` },
      });
      if (!confirmed) return { status: "error", data: null, message: "The user chose to keep the notes." };
      const removed = await notes.clear();
      return { status: "success", data: `Cleared ${removed} note${removed === 1 ? "" : "s"}.` };
    },
  };
}
