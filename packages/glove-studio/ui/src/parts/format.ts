/** Small formatters the views share. */
export const tokens = (n: number) => n.toLocaleString("en-US");

export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "running";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().replace("T", " ").slice(0, 19);
}

/** "1 retry", "2 retries". */
export const retryCount = (n: number) => `${n} ${n === 1 ? "retry" : "retries"}`;

export const short = (id: string) => (id.length > 12 ? `${id.slice(0, 8)}…` : id);
