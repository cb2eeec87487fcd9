import { waitingMemory, type ConversationKind, type WaitingMemoryResult } from "./measure.js";

/**
 * Heap per waiting conversation on a glove-server: BENCH_CONVERSATIONS (10 000) conversations whose
 * turn waits for a person's answer and left memory as "waiting", next to as many idle ones, and
 * BENCH_KEPT (1 000) waiting ones kept in memory for contrast. Run with --expose-gc (npm run waiting-turns -w glove-bench);
 * add --no-opt --no-sparkplug --no-flush-bytecode for figures free of V8's compiled code.
 * Target: a waiting conversation that left memory adds ≤ 1 KiB of heap. The last line is
 * `RESULTS <json>` for the bench's test.
 */
const conversations = Number(process.env.BENCH_CONVERSATIONS ?? 10_000);
const warmUp = Number(process.env.BENCH_WARM_UP ?? 1_000);
const kept = Number(process.env.BENCH_KEPT ?? 1_000);
export const TARGET_BYTES = 1024;

const kib = (bytes: number) => (bytes / 1024).toFixed(1);
const row = (r: WaitingMemoryResult) =>
  `| ${r.kind} | ${r.conversations} | ${kib(r.baselineBytes)} | ${kib(r.afterBytes)} | ${r.bytesPerConversation.toFixed(0)} | ${r.live} | ${r.pendingQuestions} |`;

const results: WaitingMemoryResult[] = [];
for (const kind of ["idle", "waiting", "waiting-in-memory"] satisfies ConversationKind[]) {
  results.push(
    await waitingMemory({ conversations: kind === "waiting-in-memory" ? kept : conversations, kind, warmUp }),
  );
}
const [idle, waiting, inMemory] = results as [WaitingMemoryResult, WaitingMemoryResult, WaitingMemoryResult];
console.log(`Each kind after ${warmUp} conversations of the same kind (heap after a forced GC)\n`);
console.log(
  "| conversations | count | heap before (KiB) | heap after (KiB) | bytes each | in memory | pending questions |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|");
for (const r of results) console.log(row(r));
console.log(
  `\nA waiting conversation that left memory: ${waiting.bytesPerConversation.toFixed(0)} B of heap (${(waiting.bytesPerConversation - idle.bytesPerConversation).toFixed(0)} B more than an idle one); kept in memory: ${kib(inMemory.bytesPerConversation)} KiB.`,
);
const pass =
  waiting.bytesPerConversation <= TARGET_BYTES && waiting.live === 0 && waiting.pendingQuestions === conversations;
console.log(pass ? "PASS (≤ 1 KiB each)" : "FAIL (target ≤ 1 KiB each)");
console.log(`RESULTS ${JSON.stringify(results)}`);
