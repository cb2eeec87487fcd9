import type { BranchPoint, Message } from "glove-core";
import type { GloveState, LiveTool, PendingMessage } from "../types/state.js";
import type { ConversationSnapshot } from "../types/wire.js";
import { numberSlots } from "./initial-state.js";

/** A message a person typed (not tool results, a summary or injected skill context). */
export function isTypedUserMessage(message: Message): boolean {
  return (
    message.sender === "user" &&
    !(message.tool_results && message.tool_results.length > 0) &&
    !message.is_compaction &&
    !message.is_compaction_request &&
    !message.is_skill_injection
  );
}

/** What the user typed, whatever hooks and skills did to the stored text. */
export function typedText(message: Message): string {
  return message.pre_modified_text ?? message.text;
}

/**
 * Matches persisted user messages (from `from` on) with optimistic ones: the first pending message
 * with the same text sent no later than the persisted copy's position. A match drops the
 * optimistic entry and hands its key to the history entry, so React keeps the same element.
 */
function reconcile(
  messages: readonly Message[],
  from: number,
  pending: readonly PendingMessage[],
  clientKeys: Record<number, string>,
): { pending: PendingMessage[]; clientKeys: Record<number, string> } {
  let left: PendingMessage[] = [...pending];
  let keys = clientKeys;
  for (let i = from; i < messages.length && left.length > 0; i++) {
    const message = messages[i]!;
    if (!isTypedUserMessage(message) || keys[i] !== undefined) continue;
    const text = typedText(message);
    const match = left.find((p) => p.text === text && p.baseIndex <= i);
    if (!match) continue;
    left = left.filter((p) => p !== match);
    keys = { ...keys, [i]: match.clientMessageId };
  }
  return { pending: left.length === pending.length ? (pending as PendingMessage[]) : left, clientKeys: keys };
}

/** Ids of the calls that the given messages answer. */
function answeredIds(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    for (const result of message.tool_results ?? []) if (result.call_id !== undefined) ids.add(result.call_id);
  }
  return ids;
}

function dropAnswered(live: readonly LiveTool[], messages: readonly Message[]): LiveTool[] {
  if (live.length === 0) return live as LiveTool[];
  const answered = answeredIds(messages);
  if (answered.size === 0) return live as LiveTool[];
  return live.filter((tool) => !answered.has(tool.id));
}

/**
 * `messages_appended`: the history grows (or, for a replayed event, is rewritten in place) at
 * `startIndex`, so it always equals the store's. A stored agent message ends the streaming text it
 * carried; stored results replace the live ones; stored user messages settle optimistic ones.
 */
export function appendMessages(state: GloveState, added: readonly Message[], startIndex: number): GloveState {
  if (added.length === 0) return state;
  const start = Math.max(0, Math.min(startIndex, state.messages.length));
  const messages = state.messages.slice(0, start).concat(added);
  const storedAgentText = added.some((m) => m.sender === "agent");
  const clientKeys = start < state.messages.length ? keysBelow(state.clientKeys, start) : state.clientKeys;
  const settled = reconcile(messages, start, state.pending, clientKeys);
  return {
    ...state,
    messages,
    clientKeys: settled.clientKeys,
    pending: settled.pending,
    streamingText: storedAgentText ? "" : state.streamingText,
    liveTools: dropAnswered(state.liveTools, added),
  };
}

/**
 * `branches_changed`: the active branch was rewritten (regenerate, edit, switch). The history keeps
 * its first `keep` messages and continues with `messages`; what no longer stands on the branch
 * (interrupted text past it) goes, and the branch points are the server's.
 */
export function changeBranch(
  state: GloveState,
  keep: number,
  messages: readonly Message[],
  points: BranchPoint[],
): GloveState {
  const start = Math.max(0, Math.min(keep, state.messages.length));
  const next =
    messages.length === 0 && start === state.messages.length
      ? state.messages
      : state.messages.slice(0, start).concat(messages);
  return {
    ...state,
    messages: next,
    branches: points,
    clientKeys: keysBelow(state.clientKeys, start),
    interrupted: state.interrupted.filter((note) => note.at <= start),
    liveTools: dropAnswered(state.liveTools, messages),
  };
}

function keysBelow(keys: Record<number, string>, limit: number): Record<number, string> {
  const out: Record<number, string> = {};
  for (const [index, key] of Object.entries(keys)) if (Number(index) < limit) out[Number(index)] = key;
  return out;
}

/**
 * `snapshot`: the server's whole state replaces ours (a fresh stream, or a reconnect that could
 * not be replayed), stats included, so every tab counts from the conversation's totals. Client-only
 * parts survive: optimistic messages not yet in the snapshot's history, interrupted text, slot
 * order, live results of calls still running, and stats when the server sends none.
 */
export function applySnapshot(state: GloveState, snapshot: ConversationSnapshot): GloveState {
  const sameConversation = state.conversationId === null || state.conversationId === snapshot.id;
  const base = sameConversation ? state : { ...state, pending: [], interrupted: [], clientKeys: {} };
  const messages = snapshot.messages;
  const from = base.pending.reduce((min, p) => Math.min(min, p.baseIndex), messages.length);
  const settled = reconcile(messages, from, base.pending, keysBelow(base.clientKeys, messages.length));
  const answered = answeredIds(messages);
  const liveTools = snapshot.busy ? base.liveTools.filter((tool) => !answered.has(tool.id)) : [];
  const slots = numberSlots(snapshot.slots, base.slots, base.nextSlotSeq);
  return {
    ...base,
    conversationId: snapshot.id,
    messages,
    branches: snapshot.branches ?? [],
    clientKeys: settled.clientKeys,
    pending: settled.pending,
    interrupted: base.interrupted.filter((note) => note.at <= messages.length),
    streamingText: snapshot.streamingText ?? "",
    liveTools,
    slots: slots.slots,
    nextSlotSeq: slots.next,
    tasks: snapshot.tasks ?? [],
    inbox: snapshot.inbox ?? [],
    busy: snapshot.busy,
    turnId: snapshot.turnId,
    stats: snapshot.stats ?? base.stats,
  };
}
