import type { GloveFoldArgs } from "glove-core";
import { z } from "zod";
import type { NotesFile } from "../notes-file.js";

const inputSchema = z.object({
  text: z.string().trim().min(1).describe("The note's text."),
});

export type AddNoteInput = z.infer<typeof inputSchema>;

export function addNoteTool(notes: NotesFile): GloveFoldArgs<AddNoteInput> {
  return {
    name: "add_note",
    description: "Save a short note for the user. Returns the note with its id.",
    inputSchema,
    async do(input) {
      const note = await notes.add(input.text);
      return { status: "success", data: `Saved note #${note.id}: ${note.text}`, renderData: { note } };
    },
  };
}
