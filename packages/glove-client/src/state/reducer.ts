import type { GloveAction } from "../types/actions.js";
import type { GloveState, LiveTool, PendingMessage } from "../types/state.js";
import type { ErrorInfo, TurnStatus } from "../types/wire.js";
import { appendMessages, applySnapshot, changeBranch } from "./history.js";
import { initialState } from "./initial-state.js";
import { pushSlot, setSlotIssues, settleSlot } from "./slots.js";

/**
 * The one reducer both modes feed: glove-core's events, glove-server's session events, and the
 * client's own actions. Pure, so it can be tested over random event sequences.
 */
export function reduce(state: GloveState, action: GloveAction): GloveState {
  switch (action.type) {
    case "text_delta":
      return action.text ? { ...state, streamingText: state.streamingText + action.text } : state;
    case "tool_use":
      return upsertLive(state, action.id, { name: action.name, input: action.input });
    case "tool_use_result": {
      if (action.call_id === undefined) return state;
      const { status, data, message, renderData } = action.result;
      return upsertLive(state, action.call_id, { name: action.tool_name, status, data, message, renderData });
    }
    case "model_response":
    case "model_response_complete":
      return { ...state, stats: { ...state.stats, turns: state.stats.turns + 1 } };
    case "token_consumption": {
      const { tokens_in, tokens_out } = action.consumption;
      const stats = {
        ...state.stats,
        tokens_in: state.stats.tokens_in + tokens_in,
        tokens_out: state.stats.tokens_out + tokens_out,
      };
      return { ...state, stats };
    }
    case "compaction_start":
      return { ...state, isCompacting: true };
    case "compaction_end":
      return { ...state, isCompacting: false };
    case "hook_invoked":
    case "model_retry":
    case "skill_invoked":
    case "subagent_invoked":
    case "subagent_completed":
      return state;
    case "turn_start":
      return { ...state, busy: true, turnId: action.turnId, error: null };
    case "turn_end":
      return endTurn(state, action.status, action.error);
    case "turn_resumed":
      // The dead attempt's streamed text will never be stored; the new attempt streams its own.
      return { ...state, busy: true, turnId: action.turnId, streamingText: "" };
    case "slot_push":
      return pushSlot(state, action.slot);
    case "slot_settled":
      return settleSlot(state, action.slotId, action.status);
    case "slot_issues":
      return setSlotIssues(state, action.slotId, action.issues);
    case "messages_appended":
      return appendMessages(state, action.messages, action.startIndex);
    case "branches_changed":
      return changeBranch(state, action.keep, action.messages, action.points);
    case "tasks":
      return { ...state, tasks: action.tasks };
    case "inbox":
      return { ...state, inbox: action.items };
    case "snapshot":
      return applySnapshot(state, action.snapshot);
    case "user_message_queued":
      return queueMessage(state, action.clientMessageId, action.text, action.images);
    case "user_message_status":
      return updatePending(state, action.clientMessageId, ({ error, ...rest }) =>
        action.status === "failed"
          ? { ...rest, status: "failed", error: action.error ?? error ?? unknownFailure }
          : { ...rest, status: action.status },
      );
    case "user_message_removed":
      return state.pending.some((p) => p.clientMessageId === action.clientMessageId)
        ? { ...state, pending: state.pending.filter((p) => p.clientMessageId !== action.clientMessageId) }
        : state;
    case "connection":
      if (state.connection === action.state && action.error === undefined) return state;
      return { ...state, connection: action.state, ...(action.error !== undefined ? { error: action.error } : {}) };
    case "error":
      return { ...state, error: action.error };
    case "reset":
      return initialState(action.snapshot, action.conversationId);
    default:
      return state;
  }
}

const unknownFailure: ErrorInfo = { code: "GLOVE_SEND_FAILED", message: "The message could not be sent." };

function upsertLive(state: GloveState, id: string, patch: Partial<LiveTool> & { name: string }): GloveState {
  const index = state.liveTools.findIndex((tool) => tool.id === id);
  const liveTools = state.liveTools.slice();
  if (index === -1) {
    liveTools.push({ id, input: undefined, status: "running", ...patch });
  } else {
    const known = liveTools[index]!;
    // A finished call stays finished: a replayed tool_use must not make it run again.
    const status =
      known.status !== "running" && patch.status === undefined ? known.status : (patch.status ?? known.status);
    liveTools[index] = { ...known, ...patch, input: patch.input ?? known.input, status };
  }
  return { ...state, liveTools };
}

/**
 * The turn is over: nothing runs any more. Calls still marked running were cut short, and text
 * that streamed but was never stored is kept as an interrupted entry rather than vanishing. A turn
 * ended as "waiting" only waits for a person: its calls still wait on their pending slots (the
 * timeline shows them running), and an answer resumes it.
 */
function endTurn(state: GloveState, status: TurnStatus, error: ErrorInfo | undefined): GloveState {
  const waiting = status === "waiting";
  const liveTools =
    !waiting && state.liveTools.some((tool) => tool.status === "running")
      ? state.liveTools.map((tool): LiveTool => (tool.status === "running" ? { ...tool, status: "aborted" } : tool))
      : state.liveTools;
  const text = state.streamingText;
  const interrupted =
    text.trim() !== "" && status !== "done" && !waiting
      ? [
          ...state.interrupted,
          { at: state.messages.length, text, key: `interrupted:${state.messages.length}:${state.interrupted.length}` },
        ]
      : state.interrupted;
  return {
    ...state,
    busy: false,
    turnId: null,
    isCompacting: false,
    streamingText: "",
    liveTools,
    interrupted,
    error:
      status === "error" || status === "interrupted"
        ? (error ?? { code: `GLOVE_TURN_${status.toUpperCase()}`, message: `The turn ended: ${status}.` })
        : null,
  };
}

function queueMessage(
  state: GloveState,
  clientMessageId: string,
  text: string,
  images: string[] | undefined,
): GloveState {
  const known = state.pending.find((p) => p.clientMessageId === clientMessageId);
  if (known) {
    // A retry: the entry keeps its place and loses its error.
    return updatePending(state, clientMessageId, ({ error: _error, ...rest }) => ({ ...rest, status: "queued" }));
  }
  const entry: PendingMessage = { clientMessageId, text, status: "queued", baseIndex: state.messages.length };
  if (images?.length) entry.images = images;
  return { ...state, pending: [...state.pending, entry] };
}

function updatePending(
  state: GloveState,
  clientMessageId: string,
  change: (p: PendingMessage) => PendingMessage,
): GloveState {
  const index = state.pending.findIndex((p) => p.clientMessageId === clientMessageId);
  if (index === -1) return state;
  const pending = state.pending.slice();
  pending[index] = change(pending[index]!);
  return { ...state, pending };
}
