import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Displaymanager, Glove, MemoryStore } from "glove-core";
import type { CompactionConfig, ModelAdapter, StoreAdapter } from "glove-core";
import { SqliteStore } from "glove-sqlite";
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
  /**
   * Keep the conversation in `<dataDir>/sessions.db` under this name and resume it on the next
   * run. Default: $GLOVE_SESSION (set by `--session NAME`); without either, a MemoryStore.
   */
  session?: string;
}

/** The SQLite file that holds saved sessions. */
export function sessionsDbPath(dataDir: string): string {
  return join(dataDir, "sessions.db");
}

/**
 * `--session NAME` (or `--session=NAME`, or $GLOVE_SESSION) keeps the conversation in
 * `<data dir>/sessions.db` and resumes it on the next run with the same name.
 */
export function parseSession(argv: readonly string[], env: NodeJS.ProcessEnv): { session?: string; problem?: string } {
  let session = env.GLOVE_SESSION?.trim() || undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--session") {
      session = argv[++i]?.trim();
      if (!session || session.startsWith("--"))
        return { problem: "--session needs a name, e.g. npm run terminal -- --session groceries" };
    } else if (arg.startsWith("--session=")) {
      session = arg.slice("--session=".length).trim();
      if (!session) return { problem: "--session needs a name, e.g. npm run terminal -- --session=groceries" };
    } else {
      return { problem: `unknown argument "${arg}"; usage: npm run terminal [-- --session NAME]` };
    }
  }
  return session ? { session } : {};
}

/** One line for the start of a run: where the session lives and how much of it is resumed. */
export async function describeSession(dataDir: string, session: string): Promise<string> {
  const store = openStore(dataDir, session) as SqliteStore;
  try {
    const count = await store.messageCount();
    const where = sessionsDbPath(dataDir);
    return count === 0
      ? `Session "${session}" is new; it is kept in ${where} (resume it with --session ${session}).`
      : `Session "${session}": resuming ${count} earlier messages from ${where}.`;
  } finally {
    store.close();
  }
}

/** A SqliteStore for a named session (created on first use), or a fresh MemoryStore. */
export function openStore(dataDir: string, session: string | undefined): StoreAdapter {
  if (!session) return new MemoryStore(`terminal-${Date.now().toString(36)}`);
  mkdirSync(dataDir, { recursive: true });
  return new SqliteStore({ dbPath: sessionsDbPath(dataDir), sessionId: session });
}

export interface TerminalAgent {
  glove: Glove;
  display: Displaymanager;
  notes: NotesFile;
}

/**
 * Builds the agent: a real Glove with a MemoryStore, or a SqliteStore for a named session (both
 * support tasks and permissions, so `glove_update_tasks` is registered automatically), and the
 * local tools.
 */
export function createAgent(options: AgentOptions): TerminalAgent {
  const display = new Displaymanager();
  const notes = new NotesFile(options.dataDir);
  const glove = new Glove({
    model: options.model,
    displayManager: display,
    systemPrompt: SYSTEM_PROMPT,
    compaction_config: options.compaction ?? DEFAULT_COMPACTION,
    store: openStore(options.dataDir, options.session ?? process.env.GLOVE_SESSION),
  })
    .fold(addNoteTool(notes))
    .fold(listNotesTool(notes))
    .fold(deleteNoteTool(notes))
    .fold(clearNotesTool(notes))
    .fold(convertUnitsTool())
    .build();
  return { glove, display, notes };
}
