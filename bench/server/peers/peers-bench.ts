/**
 * The peers bench: glove-server, the bare loop and the AI SDK answer the same conversations against
 * the same fake model, repetitions interleaved (the order rotates), and each peer's server CPU per
 * streamed text event is compared with the bare loop's in the same repetition.
 */
import { median } from "../bench.js";
import type { Target } from "../targets.js";
import { peerRound, type PeerSample } from "./peer-round.js";

/** Rows are keyed by a target's label (two builds of one peer in a before/after run), else its kind. */
export const labelOf = (target: Target): string => target.label ?? target.kind;

export interface PeerCell {
  conversations: number;
  turns: number;
  /** Per peer: server CPU µs per streamed text event, median over the repetitions. */
  cpuPerText: Record<string, number>;
  /** Per peer: of that, threads other than the main one (JIT compiler, GC helpers), median. */
  threadCpuPerText: Record<string, number>;
  /** Per peer: its CPU per text event ÷ the bare loop's, per repetition, and their median. */
  ratios: Record<string, number[]>;
  ratio: Record<string, number>;
  /** Text events per conversation and turn (the same for every peer when they stream the same answer). */
  textPerTurn: Record<string, number>;
  samples: Record<string, PeerSample[]>;
}

export interface PeersOptions {
  sizes: number[];
  reps: number;
  turns: number;
  /**
   * Uncounted rounds per size and peer before the repetitions (default 1). A server's CPU per
   * event falls over its first rounds while V8 still compiles its code on background threads;
   * more code takes more rounds.
   */
  warmup?: number;
  log?: (line: string) => void;
}

const perText = (s: PeerSample) => s.cpuUs / Math.max(1, s.textDeltas);
const threadPerText = (s: PeerSample) => s.threadCpuUs / Math.max(1, s.textDeltas);

/** `targets` must include the bare loop (`bare-peer`), the baseline of every ratio. */
export async function peersBench(targets: Target[], options: PeersOptions): Promise<PeerCell[]> {
  const bare = targets.find((t) => t.kind === "bare-peer");
  if (!bare) throw new Error("the peers bench needs the bare-peer target as its baseline");
  const cells: PeerCell[] = [];
  for (const n of options.sizes) {
    for (let i = 0; i < (options.warmup ?? 1); i++)
      for (const target of targets) await peerRound(target, n, options.turns); // not counted
    const samples: Record<string, PeerSample[]> = {};
    for (let rep = 0; rep < options.reps; rep++) {
      const order = [...targets.slice(rep % targets.length), ...targets.slice(0, rep % targets.length)];
      for (const target of order) {
        const sample = await peerRound(target, n, options.turns);
        (samples[labelOf(target)] ??= []).push(sample);
        options.log?.(
          `  N=${n} rep ${rep + 1} ${labelOf(target)}: ${sample.textDeltas} text events, ${perText(sample).toFixed(2)} µs CPU/text event (${threadPerText(sample).toFixed(1)} off the main thread), ${sample.wallMs.toFixed(0)} ms`,
        );
      }
    }
    const bareSamples = samples[labelOf(bare)]!;
    const cell: PeerCell = {
      conversations: n,
      turns: options.turns,
      cpuPerText: {},
      threadCpuPerText: {},
      ratios: {},
      ratio: {},
      textPerTurn: {},
      samples,
    };
    for (const target of targets) {
      const label = labelOf(target);
      const own = samples[label]!;
      cell.cpuPerText[label] = median(own.map(perText));
      cell.threadCpuPerText[label] = median(own.map(threadPerText));
      cell.ratios[label] = own.map((s, i) => perText(s) / perText(bareSamples[i]!));
      cell.ratio[label] = median(cell.ratios[label]);
      cell.textPerTurn[label] = own[0]!.textDeltas / (n * options.turns);
    }
    cells.push(cell);
  }
  return cells;
}

/** Markdown rows: one per N and peer. */
export function peersTable(cells: PeerCell[], storage: string): string[] {
  const lines = [
    "| storage | N | peer | text events/turn | server CPU µs/text event | of which off the main thread | **÷ bare loop** | per-rep ratios |",
    "|---|---:|---|---:|---:|---:|---:|---|",
  ];
  for (const cell of cells) {
    for (const label of Object.keys(cell.cpuPerText)) {
      lines.push(
        `| ${storage} | ${cell.conversations} | ${label} | ${cell.textPerTurn[label]!.toFixed(0)} | ${cell.cpuPerText[label]!.toFixed(1)} | ${cell.threadCpuPerText[label]!.toFixed(1)} | **${cell.ratio[label]!.toFixed(2)}×** | ${cell.ratios[label]!.map((r) => r.toFixed(2)).join(" ")} |`,
      );
    }
  }
  return lines;
}
