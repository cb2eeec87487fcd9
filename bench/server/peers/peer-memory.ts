/** Heap held per live idle conversation on a peer: K conversations, one message each, then a full GC. */
import { BenchClient, pool, within } from "../client.js";
import type { Target } from "../targets.js";
import { AiSdkClient } from "./aisdk-client.js";
import { MESSAGE } from "./peer-round.js";

export interface PeerMemory {
  conversations: number;
  heapBefore: number;
  heapAfter: number;
  /** (after − before) / K, bytes. */
  heapPerConversation: number;
  live: number;
}

async function oneConversation(target: Target, client: BenchClient, chat: AiSdkClient): Promise<void> {
  const id = await client.createConversation("chat");
  if (target.kind === "aisdk-peer") {
    await chat.chat(id, MESSAGE);
    return;
  }
  const stream = client.openStream(id);
  await within(stream.snapshot, 60_000, "memory: snapshot");
  await client.postMessage(id, MESSAGE);
  await within(stream.turnEnd, 60_000, "memory: turn_end");
  stream.close();
}

export async function peerMemory(target: Target, conversations: number, warmup = 50): Promise<PeerMemory> {
  const client = new BenchClient(target.url);
  const chat = new AiSdkClient(target.url);
  try {
    await pool(Array.from({ length: warmup }), 25, () => oneConversation(target, client, chat));
    const before = await target.collect();
    await pool(Array.from({ length: conversations }), 25, () => oneConversation(target, client, chat));
    // Closed streams leave the server on their own schedule; give it a moment before the GC.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const after = await target.collect();
    return {
      conversations,
      heapBefore: before.heapUsed,
      heapAfter: after.heapUsed,
      heapPerConversation: (after.heapUsed - before.heapUsed) / conversations,
      live: after.live,
    };
  } finally {
    client.close();
    chat.close();
  }
}
