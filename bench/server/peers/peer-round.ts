/**
 * One round of the peers bench on one server: N conversations, each sending `turns` messages one
 * after the other (a tool call, then a streamed answer, per message), all conversations at once.
 * Measures the server's CPU over the messages and counts the streamed text events the clients got.
 */
import { BenchClient, pool, within } from "../client.js";
import type { Target } from "../targets.js";
import { AiSdkClient } from "./aisdk-client.js";

const STEP_TIMEOUT_MS = 300_000;
export const MESSAGE = "Is item 1 in stock?";

export interface PeerSample {
  conversations: number;
  turns: number;
  /** Streamed text events received (glove and bare: `text_delta` frames; AI SDK: `text-delta` chunks). */
  textDeltas: number;
  /** Every frame received after the snapshots. */
  frames: number;
  /** Server CPU (user + system) from the first message to the last answer's end, µs. */
  cpuUs: number;
  /** Of that, threads other than the main one: JIT compiler, GC helpers (0 where not measured), µs. */
  threadCpuUs: number;
  wallMs: number;
  /** The text the clients of the last conversation received, for the smoke test. */
  lastText: string;
}

async function timed(
  target: Target,
  run: () => Promise<unknown>,
): Promise<{ cpuUs: number; threadCpuUs: number; wallMs: number }> {
  const before = await target.stats();
  const t0 = performance.now();
  await run();
  const wallMs = performance.now() - t0;
  const after = await target.stats();
  return {
    cpuUs: after.cpuUs - before.cpuUs,
    threadCpuUs: (after.threadCpuUs ?? 0) - (before.threadCpuUs ?? 0),
    wallMs,
  };
}

/** glove-server and the bare loop: a conversation, an SSE stream on it, messages posted to it. */
async function eventStreamRound(target: Target, conversations: number, turns: number): Promise<PeerSample> {
  const client = new BenchClient(target.url);
  try {
    const ids = await pool(Array.from({ length: conversations }), 50, () => client.createConversation("chat"));
    const streams = ids.map((id, i) => client.openStream(id, i === ids.length - 1));
    await within(Promise.all(streams.map((s) => s.snapshot)), STEP_TIMEOUT_MS, `${target.kind}: snapshots`);
    const { cpuUs, threadCpuUs, wallMs } = await timed(target, () =>
      within(
        Promise.all(
          ids.map(async (id, i) => {
            for (let t = 1; t <= turns; t++) {
              await client.postMessage(id, MESSAGE);
              await streams[i]!.turnEnds(t);
            }
          }),
        ),
        STEP_TIMEOUT_MS,
        `${target.kind}: ${conversations} × ${turns} turns`,
      ),
    );
    for (const stream of streams) stream.close();
    await pool(ids, 50, (id) => client.deleteConversation(id));
    const last = streams.at(-1)!;
    return {
      conversations,
      turns,
      textDeltas: streams.reduce((sum, s) => sum + s.textDeltas, 0),
      frames: streams.reduce((sum, s) => sum + s.frames, 0),
      cpuUs,
      threadCpuUs,
      wallMs,
      lastText: last.events
        .filter((e) => e.type === "text_delta")
        .map((e) => (e.data as { text: string }).text)
        .join(""),
    };
  } finally {
    client.close();
  }
}

/** The AI SDK: a conversation, then each message POSTed with its answer streamed in the response. */
async function aiSdkRound(target: Target, conversations: number, turns: number): Promise<PeerSample> {
  const client = new BenchClient(target.url);
  const chat = new AiSdkClient(target.url);
  try {
    const ids = await pool(Array.from({ length: conversations }), 50, () => client.createConversation("chat"));
    let textDeltas = 0;
    let frames = 0;
    let lastText = "";
    const { cpuUs, threadCpuUs, wallMs } = await timed(target, () =>
      within(
        Promise.all(
          ids.map(async (id, i) => {
            for (let t = 1; t <= turns; t++) {
              const reply = await chat.chat(id, MESSAGE);
              textDeltas += reply.textDeltas;
              frames += reply.frames;
              if (i === ids.length - 1) lastText += reply.text;
            }
          }),
        ),
        STEP_TIMEOUT_MS,
        `${target.kind}: ${conversations} × ${turns} turns`,
      ),
    );
    await pool(ids, 50, (id) => client.deleteConversation(id));
    return { conversations, turns, textDeltas, frames, cpuUs, threadCpuUs, wallMs, lastText };
  } finally {
    client.close();
    chat.close();
  }
}

export function peerRound(target: Target, conversations: number, turns: number): Promise<PeerSample> {
  return target.kind === "aisdk-peer"
    ? aiSdkRound(target, conversations, turns)
    : eventStreamRound(target, conversations, turns);
}
