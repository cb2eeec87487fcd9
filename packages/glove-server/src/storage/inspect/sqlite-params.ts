/** better-sqlite3 binds named parameters: the SQL says `@p1`, `@p2` …, bound from an array. */
export const sqliteParam = (n: number): string => `@p${n}`;

export function sqliteBindings(params: readonly unknown[]): Record<string, unknown> {
  return Object.fromEntries(params.map((value, i) => [`p${i + 1}`, value]));
}
