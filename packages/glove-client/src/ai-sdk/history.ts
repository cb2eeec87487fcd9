import type { Message } from "glove-core";
import type { ConversationSnapshot, WireEvent } from "../types/wire.js";

/** A message the user wrote (not a tool result carrier, a compaction or a skill injection). */
export function isUserText(message: Message): boolean {
  return (
    message.sender === "user" &&
    !message.tool_results?.length &&
    !message.is_compaction_request &&
    !message.is_skill_injection &&
    !message.is_compaction
  );
}

/** The stable id of a stored message: its store id, else its position in the history. */
export function messageId(message: Message, index: number): string {
  return message.id ?? `glove-message-${index}`;
}

/** The id the assistant message answering a user message gets, the same on every load and replay. */
export function replyId(userMessageId: string): string {
  return `${userMessageId}:reply`;
}

/** One exchange of the history: a user message (absent before the first) and what the agent did after it. */
export interface Exchange {
  user: { message: Message; id: string } | undefined;
  agent: Message[];
  /** The assistant message's id (see replyId); a reply with no user message before it is named by its position. */
  replyId: string;
}

/** The history cut into exchanges, compaction summaries and requests left out (the page never saw them). */
export function exchanges(messages: readonly Message[]): Exchange[] {
  const out: Exchange[] = [];
  let current: Exchange = { user: undefined, agent: [], replyId: "glove-reply-0" };
  messages.forEach((message, index) => {
    if (message.is_compaction || message.is_compaction_request) return;
    if (isUserText(message)) {
      if (current.user || current.agent.length > 0) out.push(current);
      const id = messageId(message, index);
      current = { user: { message, id }, agent: [], replyId: replyId(id) };
    } else {
      if (!current.user && current.agent.length === 0) current.replyId = `glove-reply-${index}`;
      current.agent.push(message);
    }
  });
  if (current.user || current.agent.length > 0) out.push(current);
  return out;
}

/**
 * Stored messages told again as the events that produced them (model output, then tool results),
 * so one mapping serves live turns, replays after a reload and loaded histories.
 */
export function historyEvents(agent: readonly Message[]): WireEvent[] {
  const events: WireEvent[] = [];
  for (const message of agent) {
    if (message.sender === "agent") {
      events.push({
        type: "model_response_complete",
        text: message.text,
        ...(message.tool_calls ? { tool_calls: message.tool_calls } : {}),
      });
    }
    for (const result of message.tool_results ?? []) {
      events.push({
        type: "tool_use_result",
        tool_name: result.tool_name,
        ...(result.call_id !== undefined ? { call_id: result.call_id } : {}),
        result: result.result,
      });
    }
  }
  return events;
}

/** Whether a snapshot's conversation has a reply in progress: a running turn or a question waiting for a person. */
export function replyInProgress(snapshot: ConversationSnapshot): boolean {
  return snapshot.busy || snapshot.slots.some((slot) => slot.mode === "wait" && slot.status === "pending");
}

/**
 * The events that rebuild the reply in progress from a snapshot: what the running turn stored,
 * the text its model call streamed so far, and the questions that wait.
 */
export function replayEvents(snapshot: ConversationSnapshot, agent: readonly Message[]): WireEvent[] {
  const events = historyEvents(agent);
  if (snapshot.streamingText) events.push({ type: "text_delta", text: snapshot.streamingText });
  for (const slot of snapshot.slots)
    if (slot.mode === "wait" && slot.status === "pending") events.push({ type: "slot_push", slot });
  return events;
}

/**
 * The stored id of the page's user message `id` — the same id when the page loaded it, else the
 * stored user message at the same position (`index` among user messages; -1: the last), since the
 * page's own ids for messages it sent are not the store's.
 */
export function storedUserId(
  snapshot: ConversationSnapshot,
  id: string | undefined,
  index: number,
): string | undefined {
  const users = exchanges(snapshot.messages).flatMap((exchange) => (exchange.user ? [exchange.user.id] : []));
  if (id !== undefined && users.includes(id)) return id;
  return users.at(index);
}
