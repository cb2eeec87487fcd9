/** The words of a space-separated OAuth `scope` (none for a missing or blank one). */
export function scopeWords(scope: string | undefined): string[] {
  return scope ? scope.split(/\s+/).filter(Boolean) : [];
}

/**
 * The union of OAuth scopes, each word once, in the order first met; undefined when there is none.
 * A step-up passes the newly challenged scope first, then the ones already held: servers and
 * authorization pages read the first words as the request, and a re-authorization that left out
 * the held scopes would take away what the token could already do.
 */
export function unionScope(...scopes: Array<string | undefined>): string | undefined {
  const words = new Set(scopes.flatMap(scopeWords));
  return words.size ? [...words].join(" ") : undefined;
}

/** True when every word of `wanted` is among the words of `held`. */
export function coversScope(held: string | undefined, wanted: string | undefined): boolean {
  const have = new Set(scopeWords(held));
  return scopeWords(wanted).every((word) => have.has(word));
}
