import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import type { GloveFoldArgs, ToolReturn } from "glove-core";
import { ScriptedModel } from "glove-core/testing";
import { createAgent, type TerminalAgent } from "../src/agent.js";

/** A fresh temporary directory, and a function that removes it. */
export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "glove-terminal-agent-"));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A writable stream that keeps everything written to it. */
export function captureStream(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
  });
  return { stream, text: () => text };
}

/** Runs a tool's `do` the way the runtime would: input parsed by its schema, real display and Glove. */
export function runTool<I>(agent: TerminalAgent, tool: GloveFoldArgs<I>, input: unknown): Promise<ToolReturn> {
  const parsed = tool.inputSchema ? tool.inputSchema.parse(input) : (input as I);
  return tool.do(parsed, agent.display, agent.glove);
}

/** An agent on a scripted model that answers nothing unless given steps. */
export function scriptedAgent(
  dataDir: string,
  model = new ScriptedModel([]),
): TerminalAgent & { model: ScriptedModel } {
  return { ...createAgent({ model, dataDir }), model };
}
