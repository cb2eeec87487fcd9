import { readFile } from "node:fs/promises";
import { basename, extname } from "node:path";
import { DatasetError } from "../errors.js";
import { checkUniqueIds, parseItem, type Dataset } from "./dataset.js";
import { contentHash } from "./hash.js";
import type { EvalItem } from "./item-schema.js";

export interface LoadDatasetOptions {
  /** The dataset's name. Default: the file name without its extension. */
  name?: string;
  /** Leave malformed items out (listed in `skipped`) instead of failing the whole file. */
  skipInvalid?: boolean;
}

/**
 * Loads a dataset kept in git: `.jsonl` (one item a line; blank lines and lines starting with `//`
 * are skipped) or `.json` (an array of items, or `{ "items": [...] }`). A malformed item throws a
 * `DatasetError` naming the file and line, and nothing runs, unless `skipInvalid` is set.
 */
export async function loadDataset(file: string, options: LoadDatasetOptions = {}): Promise<Dataset> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new DatasetError(file, 0, [`cannot read the file (${(error as Error).message})`]);
  }
  const text = bytes.toString("utf8");
  const entries = extname(file) === ".json" ? jsonEntries(text, file) : jsonlEntries(text, file);
  const items: EvalItem[] = [];
  const lines: number[] = [];
  const skipped: DatasetError[] = [];
  for (const entry of entries) {
    try {
      if (entry.error) throw entry.error;
      items.push(parseItem(entry.raw, file, entry.line));
      lines.push(entry.line);
    } catch (error) {
      if (!options.skipInvalid || !DatasetError.isInstance(error)) throw error;
      skipped.push(error);
    }
  }
  checkUniqueIds(items, file, lines);
  return {
    name: options.name ?? basename(file, extname(file)),
    version: contentHash(bytes),
    items,
    file,
    skipped,
  };
}

interface Entry {
  raw: unknown;
  line: number;
  error?: DatasetError;
}

function jsonlEntries(text: string, file: string): Entry[] {
  const entries: Entry[] = [];
  text.split(/\r?\n/).forEach((content, index) => {
    const line = index + 1;
    const trimmed = content.trim();
    if (!trimmed || trimmed.startsWith("//")) return;
    try {
      entries.push({ raw: JSON.parse(trimmed) as unknown, line });
    } catch (error) {
      entries.push({
        raw: undefined,
        line,
        error: new DatasetError(file, line, [`not JSON (${(error as Error).message})`]),
      });
    }
  });
  return entries;
}

function jsonEntries(text: string, file: string): Entry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new DatasetError(file, 0, [`not JSON (${(error as Error).message})`]);
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { items?: unknown } | null)?.items;
  if (!Array.isArray(list)) throw new DatasetError(file, 0, ['expected an array of items or { "items": [...] }']);
  const starts = elementLines(text, list.length);
  return list.map((raw: unknown, index) => ({ raw, line: starts[index] ?? 0 }));
}

/**
 * The line each top-level element of the items array starts on: the array is found again by
 * scanning the text with string and nesting awareness (JSON.parse keeps no positions).
 */
function elementLines(text: string, count: number): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let arrayDepth = -1;
  let inString = false;
  let expectElement = false;
  for (let i = 0; i < text.length && lines.length < count; i++) {
    const c = text[i]!;
    if (c === "\n") line++;
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (expectElement && !/\s/.test(c) && c !== "]") {
      lines.push(line);
      expectElement = false;
    }
    if (c === '"') inString = true;
    else if (c === "[" || c === "{") {
      depth++;
      // The items array: the top-level array, or the one under the top-level object.
      if (c === "[" && arrayDepth === -1) {
        arrayDepth = depth;
        expectElement = true;
      }
    } else if (c === "]" || c === "}") depth--;
    else if (c === "," && depth === arrayDepth) expectElement = true;
  }
  return lines;
}
