import { runtimeMemory, type MemorySample } from "./measure.js";

/**
 * Memory of a long-running Runtime host over BENCH_CONVERSATIONS (10 000) conversations, with and
 * without `maxOpenConversations`. Run with --expose-gc (npm run runtime-memory -w glove-bench).
 */
const conversations = Number(process.env.BENCH_CONVERSATIONS ?? 10_000);
const sampleEvery = Number(process.env.BENCH_SAMPLE_EVERY ?? 1_000);
const maxOpen = Number(process.env.BENCH_MAX_OPEN ?? 100);

function table(label: string, samples: MemorySample[]): void {
  console.log(`\n${label}`);
  console.log("conversations | open Gloves | heap MB");
  for (const s of samples)
    console.log(
      `${String(s.conversations).padStart(13)} | ${String(s.open).padStart(11)} | ${s.heapMb.toFixed(1).padStart(7)}`,
    );
}

if (!(globalThis as { gc?: unknown }).gc) console.log("(run with --expose-gc for stable heap figures)");
const bounded = await runtimeMemory({ conversations, sampleEvery, maxOpen });
table(`maxOpenConversations: ${maxOpen}`, bounded);
const unbounded = await runtimeMemory({ conversations, sampleEvery, maxOpen: undefined });
table("no limit (before this option existed, always)", unbounded);
const growth = (s: MemorySample[]) => s.at(-1)!.heapMb - s[1]!.heapMb;
console.log(
  `\nheap growth from ${bounded[1]!.conversations} to ${conversations} conversations: ${growth(bounded).toFixed(1)} MB bounded, ${growth(unbounded).toFixed(1)} MB unbounded`,
);
