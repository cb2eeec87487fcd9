/**
 * A date field's day ("2026-11-26", as <input type="date"> gives it) in the viewer's time zone,
 * as the API's inclusive bounds: from its first millisecond, to its last. Sending the bare date
 * would read as a UTC day, which is not the day the viewer picked east or west of Greenwich.
 */
export function dayStart(day: string): string | undefined {
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!parts) return undefined;
  const date = new Date(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3]));
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function dayEnd(day: string): string | undefined {
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!parts) return undefined;
  // The next local day's midnight less a millisecond (a 23- or 25-hour day included).
  const next = new Date(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3]) + 1);
  return Number.isNaN(next.getTime()) ? undefined : new Date(next.getTime() - 1).toISOString();
}
