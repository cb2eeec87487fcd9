/** A `/name` directive found in user text. */
export interface DirectiveToken {
  name: string;
  /** Index of the "/" in the text. */
  start: number;
  /** Index just past the name. */
  end: number;
}

/** `/name` at the start or after whitespace, followed by whitespace or the end. */
const DIRECTIVE = /(^|\s)\/([A-Za-z][\w-]*)(?=\s|$)/g;

/**
 * Every `/name` token in the text, in order. Paths (`/usr/local/bin`), URLs,
 * e-mail addresses and `@mentions` never match.
 */
export function parseTokens(text: string): DirectiveToken[] {
  const tokens: DirectiveToken[] = [];
  for (const m of text.matchAll(DIRECTIVE)) {
    const start = m.index + m[1]!.length;
    tokens.push({ name: m[2]!, start, end: start + 1 + m[2]!.length });
  }
  return tokens;
}

/** The non-triggerable marker a bound directive leaves in the stored message. */
export function placeholderFor(kind: "hook" | "skill", name: string): string {
  return `[invoked_extension__${kind}_${name}]`;
}

/**
 * Replaces the given tokens: with their placeholder, or removed (`null`). Only a removed token's
 * own surroundings change (one adjacent space or tab goes with it); the rest of the text, its
 * indentation and spacing included, is kept exactly, so code in a message reaches the model intact.
 */
export function replaceTokens(text: string, tokens: Array<DirectiveToken & { replacement: string | null }>): string {
  if (tokens.length === 0) return text;
  let out = "";
  let cursor = 0;
  for (const t of tokens) {
    let start = t.start;
    let end = t.end;
    if (t.replacement === null) {
      if (isBlank(text[end])) end += 1;
      else if (start > cursor && isBlank(text[start - 1])) start -= 1;
    }
    out += text.slice(cursor, start);
    if (t.replacement !== null) out += t.replacement;
    cursor = end;
  }
  return out + text.slice(cursor);
}

function isBlank(char: string | undefined): boolean {
  return char === " " || char === "\t";
}
