import type { GloveAction } from "../types/actions.js";
import type { ConversationSnapshot } from "../types/wire.js";
import type { SseFrame } from "./sse-reader.js";

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === "string";

/**
 * The shape each event must have before it reaches the reducer. The server is ours, but a proxy,
 * a version mismatch or another service at that URL must not crash the UI: an event that does not
 * fit is dropped (and logged), the stream goes on.
 */
const CHECKS: Record<string, (v: Json) => boolean> = {
  text_delta: (v) => isString(v.text),
  tool_use: (v) => isString(v.id) && isString(v.name),
  model_response: (v) => isString(v.text),
  model_response_complete: (v) => isString(v.text),
  tool_use_result: (v) => isString(v.tool_name) && isRecord(v.result) && isString(v.result.status),
  compaction_start: () => true,
  compaction_end: () => true,
  token_consumption: (v) =>
    isRecord(v.consumption) &&
    typeof v.consumption.tokens_in === "number" &&
    typeof v.consumption.tokens_out === "number",
  hook_invoked: () => true,
  skill_invoked: () => true,
  subagent_invoked: () => true,
  subagent_completed: () => true,
  turn_start: (v) => isString(v.turnId),
  turn_end: (v) => isString(v.turnId) && isString(v.status),
  turn_resumed: (v) => isString(v.turnId) && typeof v.attempt === "number",
  slot_push: (v) => isRecord(v.slot) && isString(v.slot.id) && isString(v.slot.renderer) && isString(v.slot.status),
  slot_settled: (v) => isString(v.slotId) && isString(v.status),
  messages_appended: (v) => Array.isArray(v.messages) && typeof v.startIndex === "number",
  branches_changed: (v) => Array.isArray(v.messages) && typeof v.keep === "number" && Array.isArray(v.points),
  tasks: (v) => Array.isArray(v.tasks),
  inbox: (v) => Array.isArray(v.items),
};

export function isSnapshot(v: unknown): v is ConversationSnapshot {
  return isRecord(v) && isString(v.id) && Array.isArray(v.messages) && Array.isArray(v.slots ?? []);
}

/** A frame as a reducer action with its event id; undefined for frames this client does not know. */
export function frameToAction(frame: SseFrame): { action: GloveAction; id: number | undefined } | undefined {
  const id = frame.id !== undefined && /^\d+$/.test(frame.id) ? Number(frame.id) : undefined;
  let data: unknown;
  try {
    data = JSON.parse(frame.data);
  } catch {
    return undefined;
  }
  if (frame.event === "snapshot") {
    if (!isSnapshot(data)) return undefined;
    const snapshot: ConversationSnapshot = {
      ...data,
      slots: data.slots ?? [],
      tasks: data.tasks ?? [],
      inbox: data.inbox ?? [],
      streamingText: data.streamingText ?? "",
    };
    return { action: { type: "snapshot", snapshot }, id };
  }
  const check = CHECKS[frame.event];
  if (!check) return undefined;
  if (!isRecord(data) || !check(data)) {
    console.warn(`[glove-client] dropped a malformed "${frame.event}" event`, data);
    return undefined;
  }
  return { action: { ...data, type: frame.event } as GloveAction, id };
}
