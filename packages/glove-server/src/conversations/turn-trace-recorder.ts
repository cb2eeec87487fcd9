import { newSpanId } from "./span-id.js";
import { closedSpan as closed, endSpan as end } from "./trace-spans.js";
import {
  retryErrorType,
  SUBAGENT_DISPATCH_TOOL_NAME,
  TRACE_ATTR,
  TRACE_OPERATION,
  type ModelCallEvent,
  type SubscriberEventArgs,
  type ToolCall,
} from "glove-core";
import { RequestLog, type PreviousCall } from "./request-log.js";
import { callTiming } from "./call-timing.js";
import type { TraceSpan, TurnTrace, TurnTraceStatus, TurnTraceStore } from "../storage/inspect/types.js";

/** How often a running turn's trace is saved, so a live view sees progress (its end is always saved). */
export const TRACE_SAVE_EVERY_MS = 2000;

/**
 * Spans one turn keeps in memory while it runs (a runaway loop stays bounded); the storage keeps
 * its own, usually smaller, bound (TraceLimits.spansPerTurn).
 */
const RECORDED_SPANS = 10_000;

/** How a turn ended, as the server reports it in turn_end. */
export type TracedTurnEnd = "done" | "aborted" | "error" | "interrupted" | "waiting";

const END_STATUS: Record<TracedTurnEnd, TurnTraceStatus> = {
  done: "completed",
  aborted: "aborted",
  error: "error",
  interrupted: "interrupted",
  waiting: "waiting",
};

/** The spans of one agent (the turn's own, or a subagent run) still open. */
interface Frame {
  /** The subagent span this frame runs under; null for the turn's own agent. */
  parentSpanId: string | null;
  path: string;
  chat?: TraceSpan;
  /** When its next model call started, as far as events tell (after the last tool result). */
  nextChatStart: number;
  tools: Array<{ span: TraceSpan; callId: string; input: unknown; hasChild: boolean }>;
  /** The frame's own subagent span. */
  span?: TraceSpan;
}

export interface TurnTraceRecorderOptions {
  store: TurnTraceStore;
  conversationId: string;
  turnId: string;
  /** The model of the turn's own agent, for `chat <model>` names. */
  model?: string | undefined;
  /** A trace stored earlier for this turn (another worker ran it before): its spans are kept. */
  continues?: TurnTrace | undefined;
  saveEveryMs?: number;
  /** The conversation's last recorded model call before this turn (read when the turn's first call is saved). */
  previousCall?: () => Promise<PreviousCall | undefined>;
  log(message: string, error: unknown): void;
}

/**
 * Turns a Glove's subscriber events into the turn's TurnTrace (the same spans glove-otel makes:
 * `chat`, `execute_tool`, `invoke_agent` for subagents, nested through parentSpanId) and saves
 * it: every `saveEveryMs` while it changes, and at the end. Observing is synchronous and only
 * updates objects, so the streaming path never waits for storage.
 */
export class TurnTraceRecorder {
  readonly #trace: TurnTrace;
  readonly #frames = new Map<string, Frame>();
  readonly #timer: ReturnType<typeof setInterval>;
  #dirty = false;
  #saving: Promise<void> = Promise.resolve();
  #ended = false;
  /** The request inspector's log; undefined when the storage opted out (`requestLog: false`). */
  readonly #requests: RequestLog | undefined;
  /** Each observed call's chat span and start. */
  readonly #callSpans = new Map<string, { span: TraceSpan; startedAt: number }>();

  constructor(private readonly options: TurnTraceRecorderOptions) {
    const earlier = options.continues;
    this.#trace = earlier
      ? {
          ...earlier,
          endedAt: null,
          status: "running",
          spans: earlier.spans.map((s) => (s.status === "running" ? closed(s, "aborted", "glove.worker_replaced") : s)),
        }
      : {
          conversationId: options.conversationId,
          turnId: options.turnId,
          startedAt: new Date().toISOString(),
          endedAt: null,
          status: "running",
          spans: [],
          truncated: false,
        };
    this.#requests =
      options.store.limits?.requestLog === false
        ? undefined
        : new RequestLog(options.turnId, earlier, options.previousCall ?? (async () => undefined));
    this.#frames.set("", { parentSpanId: null, path: "", nextChatStart: Date.now(), tools: [] });
    this.#timer = setInterval(() => this.#saveIfChanged(), options.saveEveryMs ?? TRACE_SAVE_EVERY_MS);
    this.#timer.unref?.();
    // Saved at the first tick even without events since: a live view sees every running turn.
    this.#dirty = true;
  }

  /** One subscriber event of the turn's Glove. */
  observe(...[type, data]: SubscriberEventArgs): void {
    if (this.#ended) return;
    const frame = this.#frame(data.agentPath);
    switch (type) {
      case "text_delta":
      case "tool_use":
        // Only the first opens the call's span; the rest change nothing to save (most events are these).
        if (frame.chat) return;
        this.#chat(frame);
        break;
      case "model_response":
      case "model_response_complete":
        this.#modelResponse(frame, data);
        break;
      case "model_retry": {
        // A retry belongs to the call it repeats (its span opens now when nothing streamed yet);
        // `attempt` counts every retry of the call so far, the last one's cause is kept.
        const chat = this.#chat(frame);
        chat.attributes[TRACE_ATTR.retries] = data.attempt;
        chat.attributes[TRACE_ATTR.retryReason] = `${retryErrorType(data)}: ${data.reason}`;
        break;
      }
      case "tool_use_result": {
        const tool =
          this.#takeTool(frame, data.call_id, data.tool_name) ??
          this.#continuedTool(frame, data.tool_name, data.call_id ?? "");
        const status = data.result?.status ?? "success";
        tool.attributes[TRACE_ATTR.toolStatus] = status;
        end(
          tool,
          status === "success" ? "ok" : status === "aborted" ? "aborted" : "error",
          status === "error" ? "tool_error" : status === "aborted" ? "AbortError" : undefined,
        );
        if (frame.tools.length === 0) frame.nextChatStart = Date.now();
        break;
      }
      case "turn_resumed":
        // The call that asked runs again and meets its recorded answer.
        this.#continuedTool(frame, data.tool_name, data.call_id);
        break;
      case "subagent_invoked":
        this.#subagentInvoked(frame, data.name, data.prompt);
        break;
      case "subagent_completed": {
        const child = this.#frames.get(joinPath(frame.path, data.name));
        if (child)
          this.#closeFrame(
            child,
            data.status === "success" ? "ok" : "error",
            data.status === "success" ? undefined : "glove.subagent_error",
          );
        break;
      }
      default:
        return;
    }
    this.#dirty = true;
  }

  /**
   * One model call event (Glove.observeModelCalls): the call's span opens when it is sent, its
   * time to first token and attempts are noted on it, and the request log keeps its request and
   * answer.
   */
  observeCall(event: ModelCallEvent): void {
    if (this.#ended) return;
    this.#requests?.observe(event);
    const frame = this.#frame(event.agentPath);
    if (event.phase === "request") {
      if (event.compaction) return;
      if (!frame.chat) frame.nextChatStart = event.startedAt;
      const span = this.#chat(frame);
      this.#callSpans.set(event.callId, { span, startedAt: event.startedAt });
      this.#requests?.spanOf(event.callId, span.spanId);
    } else {
      const seen = this.#callSpans.get(event.callId);
      if (seen && event.phase === "wire") {
        // A subagent's model is named by its wire request (the server knows the turn's own only).
        if (seen.span.attributes[TRACE_ATTR.requestModel] === undefined) {
          seen.span.attributes[TRACE_ATTR.requestModel] = event.wire.model;
          seen.span.name = `${TRACE_OPERATION.chat} ${event.wire.model}`;
        }
      } else if (seen && event.phase === "answer") {
        Object.assign(seen.span.attributes, callTiming(seen.startedAt, event));
        this.#callSpans.delete(event.callId);
      }
    }
    this.#dirty = true;
  }

  /** The turn ended: open spans end with it (a waiting turn's calls stay open) and the trace is saved. */
  async end(how: TracedTurnEnd, errorType?: string): Promise<void> {
    if (this.#ended) return this.#saving;
    this.#ended = true;
    clearInterval(this.#timer);
    if (how !== "waiting") {
      const status = how === "done" ? "ok" : how === "error" ? "error" : "aborted";
      const reason =
        how === "error"
          ? (errorType ?? "error")
          : how === "done"
            ? undefined
            : how === "aborted"
              ? "AbortError"
              : "glove.interrupted";
      for (const frame of [...this.#frames.values()].reverse()) this.#closeFrame(frame, status, reason);
    }
    this.#trace.status = END_STATUS[how];
    if (how === "error") this.#trace.error = { code: errorType ?? "error" };
    this.#trace.endedAt = new Date().toISOString();
    this.#save();
    return this.#saving;
  }

  /** Saves what changed now and stops recording (the turn goes on elsewhere, or left memory). */
  async stop(): Promise<void> {
    if (this.#dirty && !this.#ended) this.#save();
    this.discard();
    return this.#saving;
  }

  /** The turn never showed (an inbox delivery that claimed nothing, a refused answer): nothing is saved. */
  discard(): void {
    this.#ended = true;
    clearInterval(this.#timer);
  }

  #saveIfChanged(): void {
    if (this.#dirty && !this.#ended) this.#save();
  }

  /** Saves a copy of the trace now, after the saves before it. */
  #save(): void {
    this.#dirty = false;
    const copy: TurnTrace = {
      ...this.#trace,
      spans: this.#trace.spans.map((s) => ({ ...s, attributes: { ...s.attributes } })),
    };
    this.#saving = this.#saving
      .then(async () => {
        const calls = await this.#requests?.settle();
        await this.options.store.save(calls?.length ? { ...copy, calls: [...calls] } : copy);
      })
      .catch((error: unknown) =>
        this.options.log(`[glove-server] could not save the trace of turn ${this.#trace.turnId}`, error),
      );
  }

  #frame(agentPath: readonly string[] | undefined): Frame {
    const path = agentPath?.join("/") ?? "";
    let frame = this.#frames.get(path);
    if (!frame) {
      // Events of a subagent whose start was not seen (a resumed chain): it runs under the turn.
      frame = { parentSpanId: null, path, nextChatStart: Date.now(), tools: [] };
      this.#frames.set(path, frame);
    }
    return frame;
  }

  #chat(frame: Frame): TraceSpan {
    if (frame.chat) return frame.chat;
    const model = frame.path === "" ? this.options.model : undefined;
    const attributes: TraceSpan["attributes"] = { [TRACE_ATTR.operationName]: TRACE_OPERATION.chat };
    if (model) attributes[TRACE_ATTR.requestModel] = model;
    frame.chat = this.#add(
      frame,
      "model_call",
      model ? `${TRACE_OPERATION.chat} ${model}` : TRACE_OPERATION.chat,
      attributes,
      frame.nextChatStart,
    );
    return frame.chat;
  }

  #modelResponse(
    frame: Frame,
    data: { tool_calls?: ToolCall[]; stop_reason?: string; tokens_in?: number; tokens_out?: number },
  ): void {
    const chat = this.#chat(frame);
    frame.chat = undefined;
    if (data.tokens_in !== undefined) chat.attributes[TRACE_ATTR.inputTokens] = data.tokens_in;
    if (data.tokens_out !== undefined) chat.attributes[TRACE_ATTR.outputTokens] = data.tokens_out;
    if (data.stop_reason) chat.attributes[TRACE_ATTR.finishReasons] = data.stop_reason;
    end(chat, "ok");
    // Tools run right after the model's answer is stored; the events do not say when each starts.
    for (const call of Array.isArray(data.tool_calls) ? data.tool_calls : [])
      this.#openTool(frame, call.tool_name, call.id ?? "", call.input_args);
    frame.nextChatStart = Date.now();
  }

  #openTool(frame: Frame, name: string, callId: string, input: unknown): TraceSpan {
    const attributes: TraceSpan["attributes"] = {
      [TRACE_ATTR.operationName]: TRACE_OPERATION.executeTool,
      [TRACE_ATTR.toolName]: name,
    };
    if (callId) attributes[TRACE_ATTR.toolCallId] = callId;
    const span = this.#add(frame, "tool_call", `${TRACE_OPERATION.executeTool} ${name}`, attributes, Date.now());
    frame.tools.push({ span, callId, input, hasChild: false });
    return span;
  }

  /** A call this turn did not start: an earlier turn's, run again now that its answer came (or its worker was replaced). */
  #continuedTool(frame: Frame, name: string, callId: string): TraceSpan {
    const span = this.#openTool(frame, name, callId, undefined);
    span.attributes[TRACE_ATTR.resumed] = true;
    return span;
  }

  #takeTool(frame: Frame, callId: string | undefined, name: string): TraceSpan | undefined {
    let index = callId ? frame.tools.findIndex((t) => t.callId === callId) : -1;
    if (index < 0) index = frame.tools.findIndex((t) => t.span.attributes[TRACE_ATTR.toolName] === name);
    return index < 0 ? undefined : frame.tools.splice(index, 1)[0]!.span;
  }

  #subagentInvoked(frame: Frame, name: string, prompt: string): void {
    // The dispatch call that carried this prompt; concurrent calls are told apart by their input.
    const free = frame.tools.filter(
      (t) => t.span.attributes[TRACE_ATTR.toolName] === SUBAGENT_DISPATCH_TOOL_NAME && !t.hasChild,
    );
    const call =
      free.find(
        (t) =>
          (t.input as { name?: unknown; prompt?: unknown } | undefined)?.name === name &&
          (t.input as { prompt?: unknown }).prompt === prompt,
      ) ?? free[0];
    if (call) call.hasChild = true;
    const path = joinPath(frame.path, name);
    const attributes: TraceSpan["attributes"] = {
      [TRACE_ATTR.operationName]: TRACE_OPERATION.invokeAgent,
      [TRACE_ATTR.agentName]: name,
      [TRACE_ATTR.subagent]: true,
    };
    const parent: Frame = { ...frame, parentSpanId: call?.span.spanId ?? frame.parentSpanId };
    const span = this.#add(parent, "subagent", `${TRACE_OPERATION.invokeAgent} ${name}`, attributes, Date.now());
    this.#frames.set(path, { parentSpanId: span.spanId, path, nextChatStart: Date.now(), tools: [], span });
  }

  /** Ends a frame's open spans, then its subagent span; frames below it end with it. */
  #closeFrame(frame: Frame, status: TraceSpan["status"], errorType: string | undefined): void {
    for (const [path, below] of this.#frames)
      if (path.startsWith(`${frame.path}/`) && frame.path !== "") this.#closeFrame(below, status, errorType);
    if (frame.chat) end(frame.chat, status, errorType);
    frame.chat = undefined;
    for (const tool of frame.tools.splice(0)) end(tool.span, status, errorType);
    if (frame.span) {
      frame.span.attributes[TRACE_ATTR.subagentStatus] = status === "ok" ? "success" : "error";
      end(frame.span, status, errorType);
      this.#frames.delete(frame.path);
    }
  }

  /** A new running span under the frame's parent; past the per-turn bound it is only counted. */
  #add(
    frame: Frame,
    kind: TraceSpan["kind"],
    name: string,
    attributes: TraceSpan["attributes"],
    startMs: number,
  ): TraceSpan {
    if (frame.path) attributes[TRACE_ATTR.agentPath] = frame.path;
    const span: TraceSpan = {
      spanId: newSpanId(),
      parentSpanId: frame.parentSpanId,
      name,
      kind,
      startMs,
      durationMs: null,
      status: "running",
      attributes,
    };
    if (this.#trace.spans.length < RECORDED_SPANS) this.#trace.spans.push(span);
    else {
      this.#trace.truncated = true;
      this.#trace.dropped = (this.#trace.dropped ?? 0) + 1;
    }
    return span;
  }
}

function joinPath(path: string, name: string): string {
  return path ? `${path}/${name}` : name;
}
