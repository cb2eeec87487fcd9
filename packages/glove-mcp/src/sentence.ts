/**
 * `text` closing a sentence: a full stop is added unless it already ends with one (or with `!` or
 * `?`). For messages that end with another message (a cause's, a server's), which may or may not.
 */
export function endSentence(text: string): string {
  const trimmed = text.trimEnd();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
