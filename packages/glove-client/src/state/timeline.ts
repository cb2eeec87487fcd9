import type { BranchPoint, ContentPart, Message, ToolResultData } from "glove-core";
import type { GloveState, LiveTool } from "../types/state.js";
import type { AgentTextEntry, TimelineEntry, ToolEntry, ToolStatus, UserEntry } from "../types/timeline.js";
import { typedText } from "./history.js";

/** The result's data as text, for UIs that show a line per call. */
export function outputOf(result: Pick<ToolResultData, "status" | "message"> & { data?: unknown }): string | undefined {
  if (result.status !== "success" && result.message) return result.message;
  const { data } = result;
  if (data === undefined || data === null) return result.message;
  if (typeof data === "string") return data;
  try {
    return JSON.stringify(data);
  } catch {
    return String(data);
  }
}

/** Image parts as URLs a browser can show. */
function imagesOf(content: ContentPart[] | undefined): string[] | undefined {
  const urls: string[] = [];
  for (const part of content ?? []) {
    if (part.type !== "image" || !part.source) continue;
    if (part.source.url) urls.push(part.source.url);
    else if (part.source.data) urls.push(`data:${part.source.media_type};base64,${part.source.data}`);
  }
  return urls.length ? urls : undefined;
}

type ResultFields = Pick<ToolResultData, "status" | "message" | "renderData"> & { data?: unknown };

function withResult(entry: ToolEntry, result: ResultFields): ToolEntry {
  const next: ToolEntry = { ...entry, status: result.status, data: result.data };
  const output = outputOf(result);
  if (output !== undefined) next.output = output;
  if (result.renderData !== undefined) next.renderData = result.renderData;
  return next;
}

/** Keys are unique even when a provider reuses call ids across turns. */
function keyMaker(): (key: string) => string {
  const used = new Set<string>();
  return (key) => {
    let candidate = key;
    for (let n = 2; used.has(candidate); n++) candidate = `${key}~${n}`;
    used.add(candidate);
    return candidate;
  };
}

/**
 * The transcript a UI draws: the history (user messages as typed, agent text, one entry per tool
 * call with its result, compaction summaries and skill context marked as such), then calls of the
 * running turn not stored yet, then optimistic user messages. Keys come from message indexes,
 * call ids and client message ids, never from randomness, so server and client renders agree.
 */
export function buildTimeline(
  state: Pick<GloveState, "messages" | "clientKeys" | "liveTools" | "pending" | "interrupted" | "busy"> &
    Partial<Pick<GloveState, "slots" | "branches">>,
): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  const key = keyMaker();
  const live = new Map<string, LiveTool>(state.liveTools.map((tool) => [tool.id, tool]));
  const stored = new Set<string>();
  /** Calls without a stored result yet, in order: entries index and call id. */
  const open: Array<{ at: number; id: string; name: string; hasId: boolean }> = [];
  const notes = state.interrupted;
  const pushNotes = (at: number) => {
    for (const note of notes) {
      if (note.at === at) entries.push({ kind: "agent_text", key: key(note.key), text: note.text, interrupted: true });
    }
  };
  // A call whose question still waits for a person runs on, even while no turn does (a turn
  // left waiting on the server, or a snapshot after a restart): only an answer ends it.
  const asking = new Set(
    (state.slots ?? []).flatMap((slot) =>
      slot.mode === "wait" && slot.status === "pending" && slot.toolCallId !== null ? [slot.toolCallId] : [],
    ),
  );
  const unfinished = (id: string): ToolStatus => (state.busy || asking.has(id) ? "running" : "aborted");

  state.messages.forEach((message: Message, i) => {
    pushNotes(i);
    if (message.tool_results?.length) {
      for (const result of message.tool_results) {
        const index = open.findIndex((call) =>
          result.call_id !== undefined
            ? call.hasId && call.id === result.call_id
            : !call.hasId && call.name === result.tool_name,
        );
        if (index === -1) continue;
        const [call] = open.splice(index, 1);
        entries[call!.at] = withResult(entries[call!.at] as ToolEntry, result.result);
      }
      return;
    }
    if (message.is_compaction) {
      entries.push({ kind: "compaction", key: key(`msg:${i}`), summary: message.text, messageIndex: i });
      return;
    }
    if (message.is_skill_injection) {
      entries.push({ kind: "skill", key: key(`msg:${i}`), text: message.text, messageIndex: i });
      return;
    }
    if (message.is_compaction_request) return;
    if (message.sender === "user") {
      const images = imagesOf(message.content);
      const typed = typedText(message);
      if (typed === "" && !images) return;
      const clientId = state.clientKeys[i];
      const entry: UserEntry = {
        kind: "user",
        key: key(clientId !== undefined ? `user:${clientId}` : `msg:${i}`),
        text: typed,
        messageIndex: i,
      };
      if (message.id !== undefined) entry.messageId = message.id;
      if (typed !== message.text) entry.storedText = message.text;
      if (images) entry.images = images;
      if (clientId !== undefined) entry.clientMessageId = clientId;
      entries.push(entry);
      return;
    }
    if (message.text !== "" || message.reasoning_content) {
      entries.push({
        kind: "agent_text",
        key: key(`msg:${i}`),
        text: message.text,
        messageIndex: i,
        ...(message.id !== undefined ? { messageId: message.id } : {}),
        ...(message.reasoning_content ? { reasoning: message.reasoning_content } : {}),
      });
    }
    (message.tool_calls ?? []).forEach((call, j) => {
      const id = call.id ?? `${i}:${j}`;
      stored.add(id);
      open.push({ at: entries.length, id, name: call.tool_name, hasId: call.id !== undefined });
      entries.push({
        kind: "tool",
        key: key(`tool:${id}`),
        id,
        name: call.tool_name,
        input: call.input_args,
        status: "running",
        messageIndex: i,
      });
    });
  });
  pushNotes(state.messages.length);

  // Stored calls without a stored result: the live result if one arrived, else still running (or cut short).
  for (const call of open) {
    const result = live.get(call.id);
    const entry = entries[call.at] as ToolEntry;
    entries[call.at] =
      result && result.status !== "running"
        ? withResult(entry, { ...result, status: result.status })
        : { ...entry, status: unfinished(call.id) };
  }
  // Calls of the running model turn that are not stored yet.
  for (const tool of state.liveTools) {
    if (stored.has(tool.id)) continue;
    const entry: ToolEntry = {
      kind: "tool",
      key: key(`tool:${tool.id}`),
      id: tool.id,
      name: tool.name,
      input: tool.input,
      status: tool.status === "running" ? unfinished(tool.id) : tool.status,
    };
    entries.push(tool.status === "running" ? entry : withResult(entry, { ...tool, status: tool.status }));
  }
  markBranches(entries, state.branches ?? []);
  for (const pending of state.pending) {
    const entry: UserEntry = {
      kind: "user",
      key: key(`user:${pending.clientMessageId}`),
      text: pending.text,
      status: pending.status,
      clientMessageId: pending.clientMessageId,
    };
    if (pending.images) entry.images = pending.images;
    if (pending.error) entry.error = pending.error;
    entries.push(entry);
  }
  return entries;
}

/** The first entry of each branch point's message shows its alternatives. */
function markBranches(entries: TimelineEntry[], points: readonly BranchPoint[]): void {
  for (const point of points) {
    if (point.active < 0) continue;
    const at = entries.findIndex(
      (entry) =>
        entry.messageIndex === point.index &&
        (entry.kind === "user" || entry.kind === "agent_text" || entry.kind === "tool"),
    );
    if (at < 0) continue;
    const branch = {
      index: point.active,
      count: point.siblings.length,
      siblings: point.siblings.map((sibling) => sibling.id),
    };
    entries[at] = { ...(entries[at] as UserEntry | AgentTextEntry | ToolEntry), branch };
  }
}

/** `buildTimeline`, recomputed only when its inputs change (text deltas do not touch them). */
export function timelineSelector(): (state: GloveState) => TimelineEntry[] {
  let last: GloveState | undefined;
  let cached: TimelineEntry[] = [];
  return (state) => {
    if (
      last &&
      last.messages === state.messages &&
      last.clientKeys === state.clientKeys &&
      last.liveTools === state.liveTools &&
      last.pending === state.pending &&
      last.interrupted === state.interrupted &&
      last.busy === state.busy &&
      last.branches === state.branches &&
      last.slots === state.slots
    ) {
      last = state;
      return cached;
    }
    last = state;
    cached = buildTimeline(state);
    return cached;
  };
}
