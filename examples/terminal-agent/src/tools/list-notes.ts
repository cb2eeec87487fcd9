import type { GloveFoldArgs } from "glove-core";
import { z } from "zod";
import type { NotesFile } from "../notes-file.js";

const inputSchema = z.object({});

export function listNotesTool(notes: NotesFile): GloveFoldArgs<z.infer<typeof inputSchema>> {
  return {
    name: "list_notes",
    description: "List the user's saved notes with their ids.",
    inputSchema,
    async do() {
      const all = await notes.list();
      const data = all.length ? all.map((n) => `#${n.id}: ${n.text}`).join("\n") : "No notes yet.";
      return { status: "success", data, renderData: { notes: all } };
    },
  };
}
