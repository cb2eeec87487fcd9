/**
 * The peers bench: glove-server, the bare loop and the AI SDK answer the same conversations against
 * the same fake model, repetitions interleaved (the order rotates), and each peer's server CPU per
 * streamed text event is compared with the bare loop's in the same repetition.
 */
import { median } from "../bench.js";
import type { Target } from "../targets.js";
import type { PeerKind } from "./peer-options.js";
import { peerRound, type PeerSample } from "./peer-round.js";

export interface PeerCell {
  conversations: number;
  turns: number;
  /** Per peer: server CPU µs per streamed text event, median over the repetitions. */
  cpuPerText: Partial<Record<PeerKind, number>>;
  /** Per peer: its CPU per text event ÷ the bare loop's, per repetition, and their median. */
  ratios: Partial<Record<PeerKind, number[]>>;
  ratio: Partial<Record<PeerKind, number>>;
  /** Text events per conversation and turn (the same for every peer when they stream the same answer). */
  textPerTurn: Partial<Record<PeerKind, number>>;
  samples: Partial<Record<PeerKind, PeerSample[]>>;
}

export interface PeersOptions {
  sizes: number[];
  reps: number;
  turns: number;
  log?: (line: string) => void;
}

const perText = (s: PeerSample) => s.cpuUs / Math.max(1, s.textDeltas);

/** `targets` must include the bare loop (`bare-peer`), the baseline of every ratio. */
export async function peersBench(targets: Target[], options: PeersOptions): Promise<PeerCell[]> {
  const bare = targets.find((t) => t.kind === "bare-peer");
  if (!bare) throw new Error("the peers bench needs the bare-peer target as its baseline");
  const cells: PeerCell[] = [];
  for (const n of options.sizes) {
    for (const target of targets) await peerRound(target, n, options.turns); // warm-up, not counted
    const samples: Partial<Record<PeerKind, PeerSample[]>> = {};
    for (let rep = 0; rep < options.reps; rep++) {
      const order = [...targets.slice(rep % targets.length), ...targets.slice(0, rep % targets.length)];
      for (const target of order) {
        const sample = await peerRound(target, n, options.turns);
        (samples[target.kind as PeerKind] ??= []).push(sample);
        options.log?.(
          `  N=${n} rep ${rep + 1} ${target.kind}: ${sample.textDeltas} text events, ${perText(sample).toFixed(2)} µs CPU/text event, ${sample.wallMs.toFixed(0)} ms`,
        );
      }
    }
    const bareSamples = samples["bare-peer"]!;
    const cell: PeerCell = { conversations: n, turns: options.turns, cpuPerText: {}, ratios: {}, ratio: {}, textPerTurn: {}, samples };
    for (const target of targets) {
      const kind = target.kind as PeerKind;
      const own = samples[kind]!;
      cell.cpuPerText[kind] = median(own.map(perText));
      cell.ratios[kind] = own.map((s, i) => perText(s) / perText(bareSamples[i]!));
      cell.ratio[kind] = median(cell.ratios[kind]!);
      cell.textPerTurn[kind] = own[0]!.textDeltas / (n * options.turns);
    }
    cells.push(cell);
  }
  return cells;
}

/** Markdown rows: one per N and peer. */
export function peersTable(cells: PeerCell[], storage: string): string[] {
  const lines = [
    "| storage | N | peer | text events/turn | server CPU µs/text event | **÷ bare loop** | per-rep ratios |",
    "|---|---:|---|---:|---:|---:|---|",
  ];
  for (const cell of cells) {
    for (const kind of Object.keys(cell.cpuPerText) as PeerKind[]) {
      lines.push(
        `| ${storage} | ${cell.conversations} | ${kind} | ${cell.textPerTurn[kind]!.toFixed(0)} | ${cell.cpuPerText[kind]!.toFixed(1)} | **${cell.ratio[kind]!.toFixed(2)}×** | ${cell.ratios[kind]!.map((r) => r.toFixed(2)).join(" ")} |`,
      );
    }
  }
  return lines;
}
