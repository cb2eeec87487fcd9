import {
  context as otelContext,
  trace,
  SpanKind,
  SpanStatusCode,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from "@opentelemetry/api";
import {
  ConfigurationError,
  retryErrorType,
  SUBAGENT_DISPATCH_TOOL_NAME,
  type ContentPart,
  type Glove,
  type GlovePlugin,
  type Message,
  type ModelPromptResult,
  type SubscriberEvent,
  type ToolCall,
  type ToolResultData,
} from "glove-core";
import { ATTR, EVENT, OPERATION } from "./attributes.js";

/** The version this package reports with its tracer. */
export const GLOVE_OTEL_VERSION = "0.1.0";
/** The plugin's name on a Glove, also the default tracer's name. */
export const GLOVE_OTEL_PLUGIN_NAME = "glove-otel";

/** How a tool call is classified: `{ source: "mcp", server }` marks a glove-mcp tool. */
export type ToolClassifier = (toolName: string) => { source: string; server?: string } | undefined;

/** Options of `gloveTracing`: the tracer, whether to record content, and how tools are classified. */
export interface GloveTracingOptions {
  /** The tracer to use. Default: `trace.getTracer("glove-otel")` from the global provider. */
  tracer?: Tracer;
  /**
   * Record prompt and answer text, tool arguments and results, skill arguments and compaction
   * summaries (`gen_ai.input.messages`, `gen_ai.output.messages`, `gen_ai.tool.call.arguments`,
   * `gen_ai.tool.call.result`…). Default false: spans carry names, ids, counts and statuses only.
   */
  captureContent?: boolean;
  /** `gen_ai.agent.name` of the request span. Default: the Glove's name ("main"). */
  agentName?: string;
  /**
   * Classifies tools by name. Default: glove-mcp's naming (`<server>__<tool>`, see
   * `bridgedToolName`) is `{ source: "mcp", server }`, `glove_invoke_subagent` is "subagent",
   * anything else "local".
   */
  classifyTool?: ToolClassifier;
}

/** The default classifier: glove-mcp bridges MCP tools as `${namespace}__${tool}`. */
export const classifyToolByName: ToolClassifier = (toolName) => {
  if (toolName === SUBAGENT_DISPATCH_TOOL_NAME) return { source: "subagent" };
  const match = /^([A-Za-z0-9-][A-Za-z0-9_-]*?)__([A-Za-z0-9_-]+)$/.exec(toolName);
  if (match && !toolName.startsWith("glove_")) return { source: "mcp", server: match[1]! };
  return { source: "local" };
};

interface OpenTool {
  span: Span;
  ctx: Context;
  id: string;
  name: string;
  input: unknown;
  /** Set once a subagent run was attached below this tool span. */
  hasChild: boolean;
}

/** One invoke_agent span: the request, or a subagent run inside it. */
interface Frame {
  span: Span;
  ctx: Context;
  /** Set for subagent frames. */
  subagent?: string;
  /** Known for the request's own agent only (the subagent's model is built inside its factory). */
  model: () => string | undefined;
  chat?: Span;
  /** When the next model call started, as far as events tell (see README "How spans are timed"). */
  nextChatStart: number;
  tools: OpenTool[];
  tokensIn: number;
  tokensOut: number;
  lastAnswer?: string;
}

interface RequestRecord {
  parentCtx: Context;
  input?: string | ContentPart[];
  frames: Frame[];
  started: boolean;
  done: boolean;
  conversationId?: string;
}

/** One clock for every start and end (span times are inferred from events, so they must compare). */
const now = (): number => performance.timeOrigin + performance.now();

/**
 * Traces one Glove. Attach with `tracing.instrument(glove)` (exact request ends, also on abort
 * and errors) or `glove.use(tracing)` (events only: see the README for what that loses).
 * One instance per Glove: its state is the state of that Glove's requests.
 */
export class GloveTracing implements GlovePlugin {
  readonly name = GLOVE_OTEL_PLUGIN_NAME;
  private readonly tracer: Tracer;
  private readonly captureContent: boolean;
  private readonly classify: ToolClassifier;
  private readonly agentName: string | undefined;
  private glove: Glove | undefined;
  private registered = false;
  /** Requests called through the instrumented processRequest, oldest first. */
  private readonly pending: RequestRecord[] = [];
  /** The request whose events arrive now. */
  private current: RequestRecord | undefined;

  constructor(options: GloveTracingOptions = {}) {
    this.tracer = options.tracer ?? trace.getTracer(GLOVE_OTEL_PLUGIN_NAME, GLOVE_OTEL_VERSION);
    this.captureContent = options.captureContent ?? false;
    this.classify = options.classifyTool ?? classifyToolByName;
    this.agentName = options.agentName;
  }

  /**
   * Installs the plugin on `glove` and wraps its `processRequest`, so each request span ends
   * when the request settles (glove-core has no request-end hook). Returns the same Glove.
   */
  instrument<G extends Glove>(glove: G): G {
    if (this.glove || this.registered)
      throw new ConfigurationError("gloveTracing(): this instance already traces a Glove; create one per Glove.");
    this.glove = glove;
    glove.use(this);
    const original = glove.processRequest.bind(glove);
    glove.processRequest = (request, signal) => {
      const record: RequestRecord = {
        parentCtx: otelContext.active(),
        input: request,
        frames: [],
        started: false,
        done: false,
      };
      this.pending.push(record);
      return original(request, signal).then(
        (result) => {
          this.finish(record, undefined, result);
          return result;
        },
        (error: unknown) => {
          this.finish(record, error);
          throw error;
        },
      );
    };
    return glove;
  }

  onRegister(): void {
    if (this.registered)
      throw new ConfigurationError("gloveTracing(): this instance already traces a Glove; create one per Glove.");
    this.registered = true;
  }

  /** The first hook of every request: its span starts here. */
  preprocess(agent: string, text: string): undefined {
    if (this.glove) {
      const record = this.pending.find((r) => !r.started && !r.done);
      if (record) this.start(record, agent, text);
    } else {
      // Plugin-only: a request still open was cut short (abort or error) — nothing else tells us.
      if (this.current) this.finish(this.current, new RequestInterrupted());
      const record: RequestRecord = { parentCtx: otelContext.active(), frames: [], started: false, done: false };
      this.start(record, agent, text);
    }
    return undefined;
  }

  onEvent(_agent: string, conversationId: string, event: SubscriberEvent): void {
    const record = this.current;
    const frame = record?.frames.at(-1);
    if (!record || !frame) return;
    if (conversationId && !record.conversationId) {
      record.conversationId = conversationId;
      record.frames[0]!.span.setAttribute(ATTR.conversationId, conversationId);
    }
    switch (event.type) {
      case "text_delta":
      case "tool_use":
        this.ensureChat(frame);
        return;
      case "model_response":
      case "model_response_complete":
        this.modelResponse(record, frame, event);
        return;
      case "model_retry":
        this.modelRetry(frame, event);
        return;
      case "tool_use_result":
        this.toolResult(frame, event.tool_name, event.call_id, event.result);
        return;
      case "subagent_invoked":
        this.subagentInvoked(record, frame, event.name, event.prompt);
        return;
      case "subagent_completed":
        this.subagentCompleted(record, event.name, event.status, event.message);
        return;
      case "compaction_start":
        frame.span.addEvent(EVENT.compactionStart, { [ATTR.compactionTokens]: event.current_token_consumption }, now());
        return;
      case "compaction_end": {
        const attrs: Attributes = { [ATTR.compactionTokens]: event.current_token_consumption };
        if (this.captureContent) attrs[ATTR.compactionSummary] = event.summary_message.text;
        frame.span.addEvent(EVENT.compactionEnd, attrs, now());
        frame.nextChatStart = now();
        return;
      }
      case "hook_invoked":
        frame.span.addEvent(EVENT.hookInvoked, { [ATTR.hookName]: event.name }, now());
        return;
      case "skill_invoked": {
        const attrs: Attributes = { [ATTR.skillName]: event.name, [ATTR.skillSource]: event.source };
        if (this.captureContent && event.args !== undefined) attrs[ATTR.skillArgs] = event.args;
        frame.span.addEvent(EVENT.skillInvoked, attrs, now());
        return;
      }
      case "token_consumption":
        return;
    }
  }

  private start(record: RequestRecord, agent: string, text: string): void {
    record.started = true;
    const name = this.agentName ?? agent;
    const attrs: Attributes = { [ATTR.operationName]: OPERATION.invokeAgent, [ATTR.agentName]: name };
    const model = this.glove?.model.name;
    if (model) attrs[ATTR.requestModel] = model;
    if (this.captureContent) attrs[ATTR.inputMessages] = inputMessages(record.input ?? text);
    const span = this.tracer.startSpan(
      `${OPERATION.invokeAgent} ${name}`,
      { kind: SpanKind.INTERNAL, attributes: attrs, startTime: now() },
      record.parentCtx,
    );
    record.frames.push({
      span,
      ctx: trace.setSpan(record.parentCtx, span),
      model: () => this.glove?.model.name,
      nextChatStart: now(),
      tools: [],
      tokensIn: 0,
      tokensOut: 0,
    });
    this.current = record;
  }

  private ensureChat(frame: Frame): Span {
    if (frame.chat) return frame.chat;
    const model = frame.model();
    const attrs: Attributes = { [ATTR.operationName]: OPERATION.chat };
    if (model) attrs[ATTR.requestModel] = model;
    frame.chat = this.tracer.startSpan(
      model ? `${OPERATION.chat} ${model}` : OPERATION.chat,
      { kind: SpanKind.CLIENT, attributes: attrs, startTime: frame.nextChatStart },
      frame.ctx,
    );
    return frame.chat;
  }

  /** A retry belongs to the model call it repeats: its span opens now when nothing streamed yet. */
  private modelRetry(frame: Frame, retry: Extract<SubscriberEvent, { type: "model_retry" }>): void {
    const chat = this.ensureChat(frame);
    // `attempt` counts every retry of the call so far.
    chat.setAttribute(ATTR.retries, retry.attempt);
    const attrs: Attributes = {
      [ATTR.retryAttempt]: retry.attempt,
      [ATTR.retryDelayMs]: retry.delay_ms,
      [ATTR.errorType]: retryErrorType(retry),
      [ATTR.retryReason]: retry.reason,
    };
    if (retry.status > 0) attrs[ATTR.httpStatus] = retry.status;
    chat.addEvent(EVENT.modelRetry, attrs, now());
  }

  private modelResponse(
    record: RequestRecord,
    frame: Frame,
    event: { text: string; tool_calls?: ToolCall[]; stop_reason?: string; tokens_in?: number; tokens_out?: number },
  ): void {
    const chat = this.ensureChat(frame);
    frame.chat = undefined;
    const calls = Array.isArray(event.tool_calls) ? event.tool_calls : [];
    if (event.tokens_in !== undefined) {
      chat.setAttribute(ATTR.inputTokens, event.tokens_in);
      frame.tokensIn += event.tokens_in;
    }
    if (event.tokens_out !== undefined) {
      chat.setAttribute(ATTR.outputTokens, event.tokens_out);
      frame.tokensOut += event.tokens_out;
    }
    if (event.stop_reason) chat.setAttribute(ATTR.finishReasons, [event.stop_reason]);
    if (this.captureContent)
      chat.setAttribute(ATTR.outputMessages, outputMessages(event.text, calls, event.stop_reason));
    chat.end(now());

    if (calls.length === 0) {
      frame.lastAnswer = event.text;
      // Plugin-only: a text-only answer of the request's own agent ends the loop.
      if (!this.glove && record.frames.length === 1) this.finish(record, undefined);
      return;
    }
    // Tools run right after the model turn is stored; the events do not say when each one starts.
    for (const call of calls) this.openTool(frame, call.tool_name, call.id ?? "", call.input_args);
  }

  private openTool(frame: Frame, name: string, id: string, input: unknown): OpenTool {
    const attrs: Attributes = {
      [ATTR.operationName]: OPERATION.executeTool,
      [ATTR.toolName]: name,
      [ATTR.toolType]: "function",
    };
    if (id) attrs[ATTR.toolCallId] = id;
    const kind = this.classify(name);
    if (kind) {
      attrs[ATTR.toolSource] = kind.source;
      if (kind.server) attrs[ATTR.mcpServer] = kind.server;
    }
    if (this.captureContent) attrs[ATTR.toolCallArguments] = json(input);
    const span = this.tracer.startSpan(
      `${OPERATION.executeTool} ${name}`,
      { kind: SpanKind.INTERNAL, attributes: attrs, startTime: now() },
      frame.ctx,
    );
    const tool: OpenTool = { span, ctx: trace.setSpan(frame.ctx, span), id, name, input, hasChild: false };
    frame.tools.push(tool);
    return tool;
  }

  private toolResult(frame: Frame, name: string, callId: string | undefined, result: ToolResultData): void {
    let index = callId ? frame.tools.findIndex((t) => t.id === callId) : -1;
    if (index < 0) index = frame.tools.findIndex((t) => t.name === name);
    const tool = index >= 0 ? frame.tools.splice(index, 1)[0]! : this.openTool(frame, name, callId ?? "", undefined);
    if (index < 0) frame.tools.pop();
    const status = result?.status ?? "success";
    tool.span.setAttribute(ATTR.toolStatus, status);
    if (this.captureContent) tool.span.setAttribute(ATTR.toolCallResult, json(result?.data ?? null));
    if (status === "error" || status === "aborted") {
      tool.span.setAttribute(ATTR.errorType, status === "aborted" ? "AbortError" : "tool_error");
      tool.span.setStatus({
        code: SpanStatusCode.ERROR,
        message: typeof result.message === "string" ? result.message : status,
      });
    }
    tool.span.end(now());
    if (frame.tools.length === 0) frame.nextChatStart = now();
  }

  private subagentInvoked(record: RequestRecord, frame: Frame, name: string, prompt: string): void {
    // The tool call that carried this prompt; concurrent calls are told apart by their input.
    const free = frame.tools.filter((t) => t.name === SUBAGENT_DISPATCH_TOOL_NAME && !t.hasChild);
    const tool =
      free.find((t) => {
        const input = t.input as { name?: unknown; prompt?: unknown } | undefined;
        return input?.name === name && input?.prompt === prompt;
      }) ?? free[0];
    if (tool) tool.hasChild = true;
    const parent = tool?.ctx ?? frame.ctx;
    const attrs: Attributes = {
      [ATTR.operationName]: OPERATION.invokeAgent,
      [ATTR.agentName]: name,
      [ATTR.subagent]: true,
    };
    if (this.captureContent) attrs[ATTR.inputMessages] = inputMessages(prompt);
    const span = this.tracer.startSpan(
      `${OPERATION.invokeAgent} ${name}`,
      { kind: SpanKind.INTERNAL, attributes: attrs, startTime: now() },
      parent,
    );
    record.frames.push({
      span,
      ctx: trace.setSpan(parent, span),
      subagent: name,
      model: () => undefined,
      nextChatStart: now(),
      tools: [],
      tokensIn: 0,
      tokensOut: 0,
    });
  }

  private subagentCompleted(record: RequestRecord, name: string, status: "success" | "error", message?: string): void {
    let index = -1;
    for (let i = record.frames.length - 1; i > 0; i--) {
      if (record.frames[i]!.subagent === name) {
        index = i;
        break;
      }
    }
    if (index < 0) return;
    const failure = status === "error" ? new SubagentFailed(message) : undefined;
    // Frames opened inside it (nested subagents) end with it.
    for (const frame of record.frames.splice(index).reverse()) {
      frame.span.setAttribute(ATTR.subagentStatus, status);
      this.endFrame(frame, failure);
    }
  }

  /** Ends what is still open in a frame, then the frame's span. */
  private endFrame(frame: Frame, error: unknown, result?: ModelPromptResult | Message): void {
    if (frame.chat) {
      if (error) markError(frame.chat, error);
      frame.chat.end(now());
      frame.chat = undefined;
    }
    for (const tool of frame.tools.splice(0)) {
      markError(tool.span, error ?? new RequestInterrupted());
      tool.span.end(now());
    }
    frame.span.setAttribute(ATTR.inputTokens, frame.tokensIn);
    frame.span.setAttribute(ATTR.outputTokens, frame.tokensOut);
    if (this.captureContent) {
      const answer = result ? resultText(result) : frame.lastAnswer;
      if (answer !== undefined) frame.span.setAttribute(ATTR.outputMessages, outputMessages(answer, [], undefined));
    }
    if (error) markError(frame.span, error);
    frame.span.end(now());
  }

  /** Ends every span of the request; the request is settled (or, plugin-only, looks finished). */
  private finish(record: RequestRecord, error: unknown, result?: ModelPromptResult | Message): void {
    if (record.done) return;
    // A request that never ran (aborted while queued, not built) still gets its (short) span.
    if (!record.started) this.start(record, this.glove?.name ?? "main", "");
    record.done = true;
    const i = this.pending.indexOf(record);
    if (i >= 0) this.pending.splice(i, 1);
    if (this.current === record) this.current = undefined;
    const frames = record.frames.splice(0).reverse();
    frames.forEach((frame, n) => {
      // Subagents still running when the request ends were cut short with it.
      const last = n === frames.length - 1;
      this.endFrame(frame, last ? error : (error ?? new RequestInterrupted()), last ? result : undefined);
    });
  }
}

/** A span ended because its request ended first. */
class RequestInterrupted extends Error {
  override readonly name = "glove.request_interrupted";
  constructor() {
    super("the request ended before this span's work did");
  }
}

class SubagentFailed extends Error {
  override readonly name = "glove.subagent_error";
}

function markError(span: Span, error: unknown): void {
  const type = error instanceof Error ? error.name || error.constructor.name : typeof error;
  span.setAttribute(ATTR.errorType, type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value ?? null) ?? "null";
  } catch {
    return String(value);
  }
}

function textParts(input: string | ContentPart[]): Array<Record<string, unknown>> {
  if (typeof input === "string") return [{ type: "text", content: input }];
  return input.map((part) =>
    part.type === "text"
      ? { type: "text", content: part.text ?? "" }
      : { type: part.type, mime_type: part.source?.media_type },
  );
}

/** `gen_ai.input.messages`: the user's message in the conventions' JSON shape. */
function inputMessages(input: string | ContentPart[]): string {
  return json([{ role: "user", parts: textParts(input) }]);
}

/** `gen_ai.output.messages`: the model's text and tool calls. */
function outputMessages(text: string, calls: ToolCall[], finishReason: string | undefined): string {
  const parts: Array<Record<string, unknown>> = [];
  if (text) parts.push({ type: "text", content: text });
  for (const c of calls) parts.push({ type: "tool_call", id: c.id, name: c.tool_name, arguments: c.input_args });
  const message: Record<string, unknown> = { role: "assistant", parts };
  if (finishReason) message.finish_reason = finishReason;
  return json([message]);
}

function resultText(result: ModelPromptResult | Message): string {
  if ("messages" in result) return result.messages.map((m) => m.text).join("\n");
  return result.text;
}

/** Tracing for one Glove: `gloveTracing(options).instrument(glove)`, or `glove.use(gloveTracing(options))`. */
export function gloveTracing(options: GloveTracingOptions = {}): GloveTracing {
  return new GloveTracing(options);
}

/** `gloveTracing(options).instrument(glove)`: traces the Glove and returns it. */
export function traceGlove<G extends Glove>(glove: G, options: GloveTracingOptions = {}): G {
  return gloveTracing(options).instrument(glove);
}
