import pg from "pg";

/** The SQL text of every statement any pg client sends while `work` runs (for counting round trips). */
export async function statementsDuring(work: () => Promise<unknown>): Promise<string[]> {
  const statements: string[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    statements.push(String(typeof args[0] === "string" ? args[0] : (args[0] as { text: string }).text));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = query;
  }
  return statements;
}
