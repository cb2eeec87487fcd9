import type { ConversationHandle } from "../../conversations/conversation-handle.js";
import type { SseSource } from "../../http/sse-response.js";
import type { NativeEvent, NativeEvents } from "../shared/native-events.js";
import { encodeEvents, type AgUiEvent, type AgUiMessage, type AgUiState } from "./events.js";
import { AgUiEventMapper, type IdSource } from "./event-mapper.js";
import { rememberInterrupts } from "./interrupt-positions.js";
import { slotToInterrupt, waitingSlots } from "./interrupts.js";
import { toAgUiMessages, withStreamedResults } from "./messages.js";
import { snapshotNames, type PageMessage } from "./page-ids.js";
import type { Message } from "glove-core";

/** A conversation snapshot's data, as the run stream reads it. */
type SnapshotData = Record<string, unknown>;

export interface RunStreamOptions {
  conversation: ConversationHandle;
  /** The conversation's events from where the run starts. */
  native: NativeEvents;
  threadId: string;
  runId: string;
  /** The turn this run streams; undefined when the run follows whatever turn runs (a resume). */
  turnId: string | undefined;
  /** Whether the turn's start is behind already (a resumed turn, or one seen in the snapshot). */
  started: boolean;
  /** What goes out first, after RUN_STARTED. */
  prelude: AgUiEvent[];
  /** Ends the run at once after the prelude: nothing is left to stream. */
  finished?: AgUiEvent[];
  /** The run's `messages`: snapshots name the thread's messages by the page's ids. */
  page: readonly PageMessage[];
  /** The client's id of the user message that starts the turn (snapshots use it for the stored one). */
  userMessageId?: string;
  ids: IdSource;
}

/** The state a snapshot shows: tasks and inbox. */
export function stateOf(data: SnapshotData): AgUiState {
  return { tasks: Array.isArray(data.tasks) ? data.tasks : [], inbox: Array.isArray(data.inbox) ? data.inbox : [] };
}

/** How a snapshot names messages: by the ids the page holds them under, and those this run streamed. */
export interface SnapshotNaming {
  /** The run's `messages`: what the page shows. */
  page: readonly PageMessage[];
  /** Stored id → the id this run streamed it under. */
  streamed?: ReadonlyMap<string, string>;
  /** Tool results this run streamed that the stored history does not hold yet. */
  streamedResults?: ReadonlyMap<string, Extract<AgUiMessage, { role: "tool" }>>;
}

/** The thread's messages as a MESSAGES_SNAPSHOT, each under the id the page knows it by (page-ids.ts). */
export function messagesSnapshot(data: SnapshotData, naming: SnapshotNaming): AgUiEvent {
  const history = (data.messages ?? []) as Message[];
  const names = snapshotNames(toAgUiMessages(history), naming.page, naming.streamed);
  return {
    type: "MESSAGES_SNAPSHOT",
    messages: withStreamedResults(toAgUiMessages(history, names), naming.streamedResults ?? new Map()),
  };
}

/**
 * How a run ends when nothing more will stream, read from a snapshot: the history and state
 * (so the page matches the server), then RUN_FINISHED — an interrupt when questions wait.
 */
export function closingEvents(
  data: SnapshotData,
  threadId: string,
  runId: string,
  naming: SnapshotNaming,
): AgUiEvent[] {
  const interrupts = waitingSlots(data.slots).map(slotToInterrupt);
  return [
    messagesSnapshot(data, naming),
    { type: "STATE_SNAPSHOT", snapshot: stateOf(data) },
    {
      type: "RUN_FINISHED",
      threadId,
      runId,
      outcome: interrupts.length > 0 ? { type: "interrupt", interrupts } : { type: "success" },
    },
  ];
}

/**
 * One AG-UI run over a conversation's events: the turn's content, until the turn ends or a
 * question stops it (RUN_FINISHED with an interrupt; the turn keeps waiting on the server, and a
 * resume run answers it). The client going away ends only the stream, never the turn.
 */
export function runStream(options: RunStreamOptions): SseSource {
  const { conversation, native, threadId, runId, turnId } = options;
  const mapper = new AgUiEventMapper(options.ids);
  let started = options.started;
  let pending: AgUiEvent[] | undefined = [
    { type: "RUN_STARTED", threadId, runId, protocolVersion: "1.0" },
    ...options.prelude,
    ...(options.finished ?? []),
  ];
  let done = options.finished !== undefined;
  /** Stored message id → the id this run streamed it under, for the snapshots this run sends. */
  const renamed = new Map<string, string>();
  let userMessageId = options.userMessageId;

  /** The id of the last native event translated: where a run that ends on questions stopped. */
  let position = 0;

  const finish = async (): Promise<AgUiEvent[]> => {
    done = true;
    const { data } = await conversation.snapshot();
    rememberInterrupts(
      conversation.log,
      waitingSlots(data.slots).map((slot) => slot.id),
      position,
    );
    const naming = { page: options.page, streamed: renamed, streamedResults: mapper.streamedResults };
    return [...mapper.close(), ...closingEvents(data, threadId, runId, naming)];
  };

  const turnEnd = async (data: Record<string, unknown>): Promise<AgUiEvent[]> => {
    const status = data.status;
    if (status === "waiting") return finish();
    done = true;
    const closed = mapper.close();
    if (status === "done") return [...closed, { type: "RUN_FINISHED", threadId, runId, outcome: { type: "success" } }];
    if (status === "aborted")
      return [...closed, { type: "RUN_FINISHED", threadId, runId, outcome: { type: "cancelled" } }];
    const error = (data.error ?? {}) as { code?: unknown; message?: unknown };
    return [
      ...closed,
      {
        type: "RUN_ERROR",
        code: typeof error.code === "string" ? error.code : "GLOVE_TURN_FAILED",
        message: typeof error.message === "string" ? error.message : `The turn ended as ${String(status)}.`,
      },
    ];
  };

  /** Notes the stored ids of the messages this run streamed: the user's message and each model response. */
  const remember = (data: Record<string, unknown>) => {
    const messages = Array.isArray(data.messages) ? (data.messages as Message[]) : [];
    const start = typeof data.startIndex === "number" ? data.startIndex : 0;
    messages.forEach((message, i) => {
      const stored = message.id ?? `glove-message-${start + i}`;
      if (message.sender === "agent") {
        const streamed = mapper.takeResponseId();
        if (streamed !== undefined) renamed.set(stored, streamed);
      } else if (userMessageId !== undefined && !message.tool_results?.length) {
        renamed.set(stored, userMessageId);
        userMessageId = undefined;
      }
    });
  };

  /** A fresh view after the reader fell behind (or before the turn was seen to start). */
  const fromSnapshot = async (data: SnapshotData): Promise<AgUiEvent[]> => {
    const running = data.busy === true && (turnId === undefined || data.turnId === turnId);
    if (!started && !running && data.busy === true) return []; // our turn still waits behind another
    if (!running || waitingSlots(data.slots).length > 0) return finish();
    started = true;
    const out: AgUiEvent[] = [...mapper.close(), messagesSnapshot(data, { page: options.page, streamed: renamed })];
    out.push({ type: "STATE_SNAPSHOT", snapshot: stateOf(data) });
    if (typeof data.streamingText === "string") out.push(...mapper.text(data.streamingText));
    return out;
  };

  const translate = async (event: NativeEvent): Promise<AgUiEvent[]> => {
    const { type, data } = event;
    position = event.id;
    if (type === "snapshot") return fromSnapshot(data);
    if (!started) {
      if (type === "turn_start" && (turnId === undefined || data.turnId === turnId)) started = true;
      // Tasks and inbox are the conversation's, whichever turn changed them.
      return type === "tasks" || type === "inbox" ? mapper.map(event) : [];
    }
    if (type === "turn_end" && (turnId === undefined || data.turnId === turnId || data.status === "waiting"))
      return turnEnd(data);
    if (type === "messages_appended") {
      remember(data);
      return [];
    }
    const slot = data.slot as { mode?: unknown; status?: unknown } | undefined;
    // A question: the run stops here, the turn waits on the server for the answer.
    if (type === "slot_push" && slot?.mode === "wait" && slot.status === "pending") return finish();
    return mapper.map(event);
  };

  return {
    async read() {
      for (;;) {
        if (pending) {
          const text = encodeEvents(pending);
          pending = undefined;
          return text;
        }
        if (done) {
          native.close();
          return undefined;
        }
        const next = await native.read();
        if (next === undefined) {
          done = true;
          pending = [
            ...mapper.close(),
            {
              type: "RUN_ERROR",
              code: "GLOVE_CONVERSATION_CLOSED",
              message: "The conversation left this server (it shut down or was deleted). Run again to continue.",
            },
          ];
          continue;
        }
        if (next.kind === "heartbeat") return ": heartbeat\n\n";
        const out: AgUiEvent[] = [];
        for (const event of next.events) {
          out.push(...(await translate(event)));
          if (done) break;
        }
        if (out.length > 0) pending = out;
      }
    },
    cancel() {
      done = true;
      native.close();
    },
  };
}
