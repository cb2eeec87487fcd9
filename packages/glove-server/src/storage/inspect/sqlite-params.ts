/** Both SQLite drivers bind named parameters (glove-sqlite adapts node:sqlite to better-sqlite3's binding): the SQL says `@p1`, `@p2` …, bound from an array. */
export const sqliteParam = (n: number): string => `@p${n}`;

export function sqliteBindings(params: readonly unknown[]): Record<string, unknown> {
  return Object.fromEntries(params.map((value, i) => [`p${i + 1}`, value]));
}
