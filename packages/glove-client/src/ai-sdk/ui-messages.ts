import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import type { ConversationSnapshot } from "../types/wire.js";
import { ChunkMapper } from "./chunk-mapper.js";
import { exchanges, historyEvents, replayEvents, replyInProgress } from "./history.js";

/** Chunks folded into the message they build (or continue), by the AI SDK's own reader, as useChat would. */
export async function foldChunks(
  chunks: readonly UIMessageChunk[],
  message?: UIMessage,
): Promise<UIMessage | undefined> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: UIMessage | undefined;
  for await (const folded of readUIMessageStream(message ? { message, stream } : { stream })) last = folded;
  return last;
}

/**
 * A conversation's history as useChat's messages: a user message per message the user wrote (as
 * typed, before hooks rewrote it), then one assistant message for everything the agent did until
 * the next one — steps of text, tool parts with their outputs, and for a reply in progress its
 * streamed text and the permission prompts waiting for an answer (`approval-requested`).
 */
export async function toUIMessages(snapshot: ConversationSnapshot): Promise<UIMessage[]> {
  const all = exchanges(snapshot.messages);
  const out: UIMessage[] = [];
  for (const [index, exchange] of all.entries()) {
    if (exchange.user) {
      const { message, id } = exchange.user;
      out.push({ id, role: "user", parts: [{ type: "text", text: message.pre_modified_text ?? message.text }] });
    }
    const last = index === all.length - 1;
    const events =
      last && replyInProgress(snapshot) ? replayEvents(snapshot, exchange.agent) : historyEvents(exchange.agent);
    if (events.length === 0) continue;
    const mapper = new ChunkMapper(exchange.replyId);
    const chunks = mapper.start(exchange.replyId);
    let paused = false;
    for (const event of events) {
      const mapped = mapper.event(event);
      chunks.push(...mapped.chunks);
      if ((paused = mapped.paused)) break;
    }
    if (!paused) chunks.push(...mapper.end("done"));
    const reply = await foldChunks(chunks);
    if (reply) out.push(reply);
  }
  return out;
}
