import type { SseSource } from "../http/sse-response.js";
import type { ConversationHandle } from "./conversation-handle.js";
import { eventStream } from "./sse-stream.js";

export interface ConversationStreamOptions {
  /** The last event id the reader saw; undefined starts with a snapshot. */
  after: number | undefined;
  heartbeatMs: number;
  retryMs: number;
}

/**
 * A reader of a conversation's events (see eventStream) that keeps the conversation in memory
 * while it is open: the native event stream and the interop routes read through it.
 */
export function conversationStream(conversation: ConversationHandle, options: ConversationStreamOptions): SseSource {
  conversation.subscribers++;
  return eventStream({
    log: conversation.log,
    ...options,
    snapshot: async () => {
      const { data, lastId } = await conversation.snapshot();
      return { frame: `id: ${lastId}\nevent: snapshot\ndata: ${JSON.stringify(data)}\n\n`, lastId };
    },
    onClose: () => {
      conversation.subscribers--;
      conversation.lastActive = Date.now();
    },
  });
}
