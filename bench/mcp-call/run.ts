import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { Displaymanager, Glove, MemoryStore } from "glove-core";
import { ScriptedModel, type ScriptedStep } from "glove-core/testing";
import { bridgeMcpTools, connectMcp } from "glove-mcp";

/**
 * What the bridge costs per MCP call, against server-memory over stdio (the same server process
 * for every variant, interleaved rounds so drift hits all alike):
 *   raw     — `client.callTool` on the SDK client
 *   bridged — the bridged tool's `do` (result mapping, renderData, abort wiring)
 *   loop    — a whole Glove request (two model turns, ScriptedModel) whose first turn calls the
 *             bridged tool, on a fresh conversation per batch
 * Reported as ratios to raw, medians of BENCH_ROUNDS rounds of BENCH_CALLS calls.
 */
const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

const require = createRequire(import.meta.url);
const serverScript = path.join(
  path.dirname(require.resolve("@modelcontextprotocol/server-memory/package.json")),
  "dist",
  "index.js",
);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function perCall(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < CALLS; i++) await fn();
  return ((performance.now() - t0) / CALLS) * 1000; // µs per call
}

const dir = mkdtempSync(path.join(tmpdir(), "bench-mcp-"));
const connection = await connectMcp({
  id: "memory",
  name: "Memory",
  description: "knowledge graph",
  url: "stdio://memory",
  stdio: {
    command: process.execPath,
    args: [serverScript],
    env: { PATH: process.env.PATH ?? "", MEMORY_FILE_PATH: path.join(dir, "g.jsonl") },
  },
});
try {
  const folds = bridgeMcpTools(connection, true);
  const readGraph = folds.find((f) => f.name === "memory__read_graph")!;
  const display = new Displaymanager();
  await connection.client.callTool({
    name: "create_entities",
    arguments: { entities: [{ name: "Ada", entityType: "person", observations: ["likes tea"] }] },
  });

  // A fresh conversation per batch, so the loop figure is not about history length.
  const freshGlove = () => {
    const steps: ScriptedStep[] = [];
    for (let i = 0; i < CALLS; i++)
      steps.push({ toolCalls: [{ name: "memory__read_graph", input: {} }] }, { text: "ok" });
    return new Glove({
      store: new MemoryStore("bench"),
      model: new ScriptedModel(steps),
      displayManager: display,
      systemPrompt: "bench",
      serverMode: true,
      compaction_config: { compaction_instructions: "s", compaction_context_limit: Number.MAX_SAFE_INTEGER },
    })
      .fold(readGraph)
      .build();
  };
  let glove = freshGlove();
  const variants = {
    raw: () => connection.client.callTool({ name: "read_graph", arguments: {} }),
    bridged: () => readGraph.do({}, display, glove),
    loop: () => glove.processRequest("read"),
  };
  const batch = async (name: keyof typeof variants) => {
    if (name === "loop") glove = freshGlove();
    return perCall(variants[name]);
  };
  for (const name of Object.keys(variants) as Array<keyof typeof variants>) await batch(name); // warm-up
  const samples: Record<keyof typeof variants, number[]> = { raw: [], bridged: [], loop: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of Object.keys(variants) as Array<keyof typeof variants>) samples[name].push(await batch(name));
  }
  const raw = median(samples.raw);
  console.log(`mcp-call: server-memory over stdio, ${CALLS} calls x ${ROUNDS} rounds (median µs per call)`);
  for (const name of Object.keys(samples) as Array<keyof typeof samples>) {
    const us = median(samples[name]);
    console.log(`  ${name.padEnd(8)} ${us.toFixed(0).padStart(7)} µs   ${(us / raw).toFixed(2)}x raw`);
  }
} finally {
  await connection.close();
  rmSync(dir, { recursive: true, force: true });
}
