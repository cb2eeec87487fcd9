import type { GloveFoldArgs } from "glove-core";
import { z } from "zod";
import type { NotesFile } from "../notes-file.js";

const inputSchema = z.object({
  id: z.number().int().positive().describe("The id of the note to delete (see list_notes)."),
});

export type DeleteNoteInput = z.infer<typeof inputSchema>;

/** Destructive, so the runtime asks the user first (`requiresPermission`). */
export function deleteNoteTool(notes: NotesFile): GloveFoldArgs<DeleteNoteInput> {
  return {
    name: "delete_note",
    description: "Delete one of the user's notes by id. The user is asked for permission first.",
    inputSchema,
    requiresPermission: true,
    async do(input) {
      const note = await notes.delete(input.id);
      if (!note) {
        return {
          status: "error",
          data: null,
          message: `There is no note #${input.id}. Call list_notes to see the ids.`,
        };
      }
      return { status: "success", data: `Deleted note #${note.id}: ${note.text}` };
    },
  };
}
