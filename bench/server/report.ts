/** Markdown tables of the server bench (what run.ts prints and bench/README.md quotes). */
import type { MemoryResult, StreamCell } from "./bench.js";

export const TARGET_RATIO = 1.3;

const f = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");
const kib = (bytes: number) => f(bytes / 1024, 1);

export function streamingTable(cells: StreamCell[]): string[] {
  const lines = [
    "| N | turns/sample | events/turn | glove events/s | bare events/s | glove CPU µs/event | bare CPU µs/event | **glove/bare CPU** | glove CPU µs/token | frames/socket write glove | bare |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const c of cells) {
    const { glove: g, bare: b } = c;
    lines.push(
      `| ${c.conversations} | ${g.turns} | ${f(g.events / g.turns, 0)} | ${f(g.events / (g.wallMs / 1000), 0)} | ${f(b.events / (b.wallMs / 1000), 0)} | ${f(g.cpuUs / g.events, 2)} | ${f(b.cpuUs / b.events, 2)} | **${f(c.ratio, 2)}×** | ${f(g.cpuUs / g.textDeltas, 2)} | ${f(g.events / Math.max(1, g.flushes))} | ${f(b.events / Math.max(1, b.flushes))} |`,
    );
  }
  return lines;
}

export function memoryTable(results: Array<{ label: string; result: MemoryResult }>): string[] {
  const lines = [
    "| run | K | live after | heap before MiB | heap after MiB | **heap KiB/conversation** | RSS KiB/conversation |",
    "|---|---:|---:|---:|---:|---:|---:|",
  ];
  for (const { label, result: r } of results) {
    lines.push(
      `| ${label} | ${r.conversations} | ${r.after.live} | ${f(r.base.heapUsed / 2 ** 20)} | ${f(r.after.heapUsed / 2 ** 20)} | **${kib(r.heapPerConversation)}** | ${kib(r.rssPerConversation)} |`,
    );
  }
  return lines;
}

export function verdict(cells: StreamCell[]): string {
  const worst = Math.max(...cells.map((c) => c.ratio));
  return `glove/bare server CPU per event: ${cells.map((c) => `N=${c.conversations} ${f(c.ratio, 2)}×`).join(", ")} (target ≤ ${TARGET_RATIO}×) → ${worst <= TARGET_RATIO ? "PASS" : "FAIL"}`;
}
