import { DatasetError } from "../errors.js";
import { canonicalJson, contentHash } from "./hash.js";
import { evalItemSchema, type EvalItem, type EvalItemInput } from "./item-schema.js";

/** Items to run, with the version an experiment records. */
export interface Dataset {
  name: string;
  /** A content hash of what was loaded: the file's bytes, or the items' canonical JSON. */
  version: string;
  items: EvalItem[];
  /** Where the items came from, when a file. */
  file?: string;
  /** Malformed items left out (only with `skipInvalid`). */
  skipped: DatasetError[];
}

/** An item's id: its own, or a hash of its input. */
export function itemId(item: Pick<EvalItemInput, "id" | "input">): string {
  return item.id ?? `item-${contentHash(canonicalJson(item.input)).slice(7, 19)}`;
}

/** Checks one raw item; throws a DatasetError naming `file` and `line`. */
export function parseItem(raw: unknown, file: string, line: number): EvalItem {
  const parsed = evalItemSchema.safeParse(raw);
  if (!parsed.success) {
    throw new DatasetError(
      file,
      line,
      parsed.error.issues.map((i) => `${i.path.length ? i.path.join(".") : "item"}: ${i.message}`),
    );
  }
  return { ...parsed.data, id: itemId(parsed.data) };
}

/** A dataset defined in code; its version is the hash of its items' canonical JSON. */
export function defineDataset(name: string, items: EvalItemInput[]): Dataset {
  const parsed = items.map((raw, index) => parseItem(raw, `dataset "${name}"`, index + 1));
  checkUniqueIds(parsed, `dataset "${name}"`);
  return { name, version: contentHash(canonicalJson(parsed)), items: parsed, skipped: [] };
}

/** Two items with one id would overwrite each other's results. */
export function checkUniqueIds(items: EvalItem[], file: string, lines?: number[]): void {
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    const line = lines?.[index] ?? index + 1;
    const first = seen.get(item.id);
    if (first !== undefined) throw new DatasetError(file, line, [`id "${item.id}" is already used on line ${first}`]);
    seen.set(item.id, line);
  });
}
