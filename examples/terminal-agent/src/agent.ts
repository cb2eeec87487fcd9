import { Displaymanager, Glove, MemoryStore } from "glove-core";
import type { CompactionConfig, ModelAdapter } from "glove-core";
import { NotesFile } from "./notes-file.js";
import { addNoteTool } from "./tools/add-note.js";
import { clearNotesTool } from "./tools/clear-notes.js";
import { convertUnitsTool } from "./tools/convert-units.js";
import { deleteNoteTool } from "./tools/delete-note.js";
import { listNotesTool } from "./tools/list-notes.js";

export const SYSTEM_PROMPT = [
  "You are a helpful assistant running in the user's terminal.",
  "You can keep notes for the user (add_note, list_notes, delete_note, clear_notes) and convert units (convert_units).",
  "For requests with several steps, keep a task list with glove_update_tasks and update it as you go.",
  "Keep answers short: the terminal is narrow.",
].join(" ");

export const DEFAULT_COMPACTION: CompactionConfig = {
  compaction_instructions:
    "Summarise the conversation so far in a few sentences: what the user asked, what was done (notes, conversions, tasks) and anything still open.",
  max_turns: 40,
};

export interface AgentOptions {
  model: ModelAdapter;
  /** Where notes.json lives. */
  dataDir: string;
  compaction?: CompactionConfig;
}

export interface TerminalAgent {
  glove: Glove;
  display: Displaymanager;
  notes: NotesFile;
}

/**
 * Builds the agent: a real Glove with a MemoryStore (tasks and permissions
 * built in, so `glove_update_tasks` is registered automatically) and the local tools.
 */
export function createAgent(options: AgentOptions): TerminalAgent {
  const display = new Displaymanager();
  const notes = new NotesFile(options.dataDir);
  const glove = new Glove({
    model: options.model,
    displayManager: display,
    systemPrompt: SYSTEM_PROMPT,
    compaction_config: options.compaction ?? DEFAULT_COMPACTION,
    store: new MemoryStore(`terminal-${Date.now().toString(36)}`),
  })
    .fold(addNoteTool(notes))
    .fold(listNotesTool(notes))
    .fold(deleteNoteTool(notes))
    .fold(clearNotesTool(notes))
    .fold(convertUnitsTool())
    .build();
  return { glove, display, notes };
}
