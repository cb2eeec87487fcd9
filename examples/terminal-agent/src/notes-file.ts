import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

export interface Note {
  id: number;
  text: string;
  created_at: string;
}

interface NotesData {
  nextId: number;
  notes: Note[];
}

/**
 * Notes kept in `<dataDir>/notes.json`. Tools of one model turn run
 * concurrently, so every operation is queued: reads and writes never interleave.
 */
export class NotesFile {
  readonly path: string;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly dataDir: string) {
    this.path = join(dataDir, "notes.json");
  }

  list(): Promise<Note[]> {
    return this.exclusive(async () => (await this.load()).notes);
  }

  add(text: string): Promise<Note> {
    return this.exclusive(async () => {
      const data = await this.load();
      const note: Note = { id: data.nextId, text, created_at: new Date().toISOString() };
      await this.save({ nextId: data.nextId + 1, notes: [...data.notes, note] });
      return note;
    });
  }

  /** Removes a note; resolves with it, or undefined when no note has that id. */
  delete(id: number): Promise<Note | undefined> {
    return this.exclusive(async () => {
      const data = await this.load();
      const note = data.notes.find((n) => n.id === id);
      if (note) await this.save({ ...data, notes: data.notes.filter((n) => n.id !== id) });
      return note;
    });
  }

  /** Removes every note; resolves with how many there were. */
  clear(): Promise<number> {
    return this.exclusive(async () => {
      const data = await this.load();
      await this.save({ ...data, notes: [] });
      return data.notes.length;
    });
  }

  private exclusive<T>(op: () => Promise<T>): Promise<T> {
    const run = this.queue.then(op);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async load(): Promise<NotesData> {
    let raw: string;
    try {
      raw = await readFile(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { nextId: 1, notes: [] };
      throw error;
    }
    const parsed = JSON.parse(raw) as Partial<NotesData>;
    const notes = Array.isArray(parsed.notes) ? parsed.notes : [];
    const nextId = parsed.nextId ?? notes.reduce((max, n) => Math.max(max, n.id), 0) + 1;
    return { nextId, notes };
  }

  /** Writes to a temporary file first, so a crash never leaves half a JSON file. */
  private async save(data: NotesData): Promise<void> {
    await mkdir(this.dataDir, { recursive: true });
    const tmp = `${this.path}.tmp`;
    await writeFile(tmp, `${JSON.stringify(data, null, 2)}\n`, "utf8");
    await rename(tmp, this.path);
  }
}
