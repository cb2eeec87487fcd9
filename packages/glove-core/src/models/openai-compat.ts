/**
 * OpenAI-compatible chat completions adapter (OpenAI, OpenRouter, Gemini,
 * MiniMax, Kimi, GLM, Ollama, LM Studio and any other server speaking
 * `POST {baseURL}/chat/completions`). Lean transport: the platform's fetch plus
 * our own SSE parser — see docs/decisions/0007-model-transport.md.
 */
import { ConfigurationError, ProviderError } from "../errors.js";
import type {
  ContentPart,
  Message,
  ModelAdapter,
  ModelPromptResult,
  NotifySubscribersFunction,
  PromptRequest,
  Tool,
  ToolCall,
} from "../types/index.js";
import {
  argsString,
  estimateTokens,
  mergeConsecutive,
  parseArgs,
  partUrl,
  toolJsonSchema,
  toolResultContent,
  userParts,
} from "./shared/messages.js";
import { readSSEBatches } from "./shared/sse.js";
import { post, readBody, type TransportOptions } from "./shared/transport.js";

export { ProviderError } from "../errors.js";

export type ReasoningEffort = "minimal" | "low" | "medium" | "high";

/** Fine-grained reasoning configuration for OpenAI-compatible providers (spec: OpenAICompatReasoningOptions). */
export interface OpenAICompatReasoningOptions {
  /** Wrap reasoning in <think>...</think> and prepend to visible text. Default false. */
  includeInText?: boolean;
  /** Echo Message.reasoning_content back on tool-calling turns. Default true. */
  echo?: boolean;
  /** Top-level reasoning_effort request field. */
  effort?: ReasoningEffort;
  /** OpenRouter-style reasoning object — sent verbatim. */
  reasoningObject?: {
    effort?: "low" | "medium" | "high";
    max_tokens?: number;
    exclude?: boolean;
    enabled?: boolean;
  };
  /** Anthropic-style thinking object — for OpenAI shims that forward it. */
  thinking?: { type: "enabled" | "disabled"; budget_tokens?: number };
  /** Escape hatch — merged into the request body. */
  extraBody?: Record<string, unknown>;
}

export interface OpenAICompatAdapterOptions {
  model: string;
  /** `https://api.openai.com/v1`-style base; `/chat/completions` is appended. */
  baseURL: string;
  apiKey?: string;
  /** Provider id used in the adapter name and in ProviderError (default "openai"). */
  provider?: string;
  maxTokens?: number;
  /** Request field for maxTokens (default: max_completion_tokens for "openai", max_tokens elsewhere). */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
  /** Stream the answer (default true). */
  stream?: boolean;
  /** Ask for usage in the last streamed chunk (default true). */
  streamUsage?: boolean;
  /** Per-attempt timeout in ms (default 600 000). */
  timeout?: number;
  reasoning?: boolean | OpenAICompatReasoningOptions;
  reasoningEffort?: ReasoningEffort;
  includeReasoningInText?: boolean;
  /** Extra headers (e.g. OpenRouter's HTTP-Referer / X-Title). */
  headers?: Record<string, string>;
  /** Used when a request carries no systemPrompt. */
  systemPrompt?: string;
  maxRetries?: number;
  retryBaseDelayMs?: number;
  maxRetryDelayMs?: number;
  fetch?: typeof fetch;
}

type ChatContent = string | Array<Record<string, unknown>> | null;

interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: ChatContent;
  tool_calls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
  reasoning_content?: string;
}

interface Mapped {
  messages: ChatMessage[];
  json: string[];
}

interface StreamedCall {
  id: string;
  name: string;
  args: string;
}

interface ChunkChoice {
  index?: number;
  delta?: {
    content?: string | null;
    reasoning_content?: string | null;
    reasoning?: string | null;
    tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }>;
  };
  message?: {
    content?: string | null;
    reasoning_content?: string | null;
    reasoning?: string | null;
    tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: string } }>;
  };
  finish_reason?: string | null;
}

interface ChunkBody {
  choices?: ChunkChoice[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string; type?: string; code?: string | number } | string;
}

/** One part of a user message in chat-completions form. */
export function toChatPart(part: ContentPart): Record<string, unknown> {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text ?? "" };
    case "image": {
      const url = partUrl(part);
      return url ? { type: "image_url", image_url: { url } } : { type: "text", text: "[image without source]" };
    }
    case "document": {
      const source = part.source;
      if (source?.data !== undefined) {
        return {
          type: "file",
          file: { filename: filenameFor(source.media_type), file_data: `data:${source.media_type};base64,${source.data}` },
        };
      }
      return { type: "text", text: `[document: ${source?.url ?? "no source"}]` };
    }
    default:
      return { type: "text", text: `[${part.type} omitted: not supported by chat completions]` };
  }
}

function filenameFor(mediaType: string): string {
  const ext = mediaType.split("/")[1]?.split(/[+;]/)[0] ?? "bin";
  return `document.${ext}`;
}

function asParts(content: ChatContent): Array<Record<string, unknown>> {
  if (content === null || content === "") return [];
  return typeof content === "string" ? [{ type: "text", text: content }] : content;
}

export class OpenAICompatAdapter implements ModelAdapter {
  readonly name: string;
  readonly provider: string;
  readonly model: string;
  private systemPrompt: string;
  private readonly url: string;
  private readonly headers: Record<string, string>;
  private readonly transport: TransportOptions;
  private readonly stream: boolean;
  private readonly reasoningOn: boolean;
  private readonly echo: boolean;
  private readonly includeInText: boolean;
  /** The request body without messages, tools and stream, as JSON text minus its closing brace. */
  private readonly bodyHead: string;
  private readonly cache = new WeakMap<Message, Mapped>();
  private readonly toolCache = new WeakMap<Tool<unknown>, string>();
  private memo:
    | { history: Message[]; count: number; first: Message | undefined; last: Message | undefined; lastRole: string; json: string }
    | undefined;

  constructor(private readonly options: OpenAICompatAdapterOptions) {
    if (!options.model) throw new ConfigurationError("OpenAICompatAdapter needs a model name (option `model`).");
    this.provider = options.provider ?? "openai";
    this.model = options.model;
    this.name = `${this.provider}:${options.model}`;
    this.systemPrompt = options.systemPrompt ?? "";
    this.url = `${options.baseURL.replace(/\/+$/, "")}/chat/completions`;
    this.headers = { "content-type": "application/json", accept: "application/json, text/event-stream", ...options.headers };
    if (options.apiKey) this.headers["authorization"] = `Bearer ${options.apiKey}`;
    this.transport = {
      provider: this.provider,
      timeoutMs: options.timeout ?? 600_000,
      ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
      ...(options.retryBaseDelayMs !== undefined ? { retryBaseDelayMs: options.retryBaseDelayMs } : {}),
      ...(options.maxRetryDelayMs !== undefined ? { maxRetryDelayMs: options.maxRetryDelayMs } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    };
    this.stream = options.stream ?? true;
    const r = typeof options.reasoning === "object" ? options.reasoning : options.reasoning ? {} : undefined;
    this.reasoningOn = r !== undefined;
    this.echo = r !== undefined && r.echo !== false;
    this.includeInText = (r?.includeInText ?? false) || (options.includeReasoningInText ?? false);

    const head: Record<string, unknown> = { model: options.model };
    if (options.maxTokens !== undefined) {
      const field = options.maxTokensField ?? (this.provider === "openai" ? "max_completion_tokens" : "max_tokens");
      head[field] = options.maxTokens;
    }
    const effort = r?.effort ?? options.reasoningEffort;
    if (effort) head["reasoning_effort"] = effort;
    if (r?.reasoningObject) head["reasoning"] = r.reasoningObject;
    if (r?.thinking) head["thinking"] = r.thinking;
    if (r?.extraBody) Object.assign(head, r.extraBody);
    if (this.stream) {
      head["stream"] = true;
      if (options.streamUsage !== false) head["stream_options"] = { include_usage: true };
    }
    this.bodyHead = JSON.stringify(head).slice(0, -1);
  }

  setSystemPrompt(systemPrompt: string): void {
    this.systemPrompt = systemPrompt;
  }

  /** The request body this adapter sends for `request` (exposed for tests and benchmarks). */
  buildBody(request: PromptRequest): string {
    const system = request.systemPrompt ?? this.systemPrompt;
    const history = this.messagesJson(request.messages);
    const systemJson = system ? JSON.stringify({ role: "system", content: system }) : "";
    const sep = systemJson && history ? "," : "";
    let body = `${this.bodyHead},"messages":[${systemJson}${sep}${history}]`;
    if (request.tools?.length) {
      body += `,"tools":[${request.tools.map((t) => this.toolJson(t)).join(",")}]`;
    }
    return body + "}";
  }

  async prompt(request: PromptRequest, notify: NotifySubscribersFunction, signal?: AbortSignal): Promise<ModelPromptResult> {
    const body = this.buildBody(request);
    const open = await post(this.transport, { url: this.url, headers: this.headers, body, signal });
    try {
      return this.stream
        ? await this.readStream(open.response, notify, body.length)
        : await this.readJson(open.response, notify, body.length);
    } catch (error) {
      throw open.readFailure(error);
    } finally {
      open.close();
    }
  }

  // ---- request mapping -------------------------------------------------

  private toolJson(tool: Tool<unknown>): string {
    let json = this.toolCache.get(tool);
    if (json === undefined) {
      json = JSON.stringify({
        type: "function",
        function: { name: tool.name, description: tool.description, parameters: toolJsonSchema(tool) },
      });
      this.toolCache.set(tool, json);
    }
    return json;
  }

  /** Maps one Message to chat messages; cached per message object (the history is append-only). */
  private mapMessage(message: Message): Mapped {
    const cached = this.cache.get(message);
    if (cached) return cached;
    const messages: ChatMessage[] = [];
    if (message.sender === "agent") {
      const m: ChatMessage = { role: "assistant", content: message.text || null };
      if (message.tool_calls?.length) {
        m.tool_calls = message.tool_calls.map((call, i) => ({
          id: call.id ?? `call_${i}`,
          type: "function",
          function: { name: call.tool_name, arguments: argsString(call.input_args) },
        }));
        if (this.echo && message.reasoning_content) m.reasoning_content = message.reasoning_content;
      }
      if (m.content === null && !m.tool_calls) m.content = "";
      messages.push(m);
    } else {
      for (const r of message.tool_results ?? []) {
        messages.push({ role: "tool", tool_call_id: r.call_id ?? r.tool_name, content: toolResultContent(r.result) });
      }
      const parts = userParts(message);
      if (parts.length || !message.tool_results?.length) {
        const onlyText = parts.every((p) => p.type === "text");
        messages.push({
          role: "user",
          content: onlyText ? parts.map((p) => p.text ?? "").join("\n") : parts.map(toChatPart),
        });
      }
    }
    const mapped = { messages, json: messages.map((m) => JSON.stringify(m)) };
    this.cache.set(message, mapped);
    return mapped;
  }

  /**
   * The history as comma-joined JSON. The runtime hands the same append-only
   * array on every call of a conversation, so when it is the array seen last
   * time (same first and last-seen message) only the new messages are mapped
   * and appended to the text built before; anything else rebuilds from the
   * per-message cache.
   */
  private messagesJson(history: Message[]): string {
    const memo = this.memo;
    const count = history.length;
    if (
      memo &&
      memo.history === history &&
      count >= memo.count &&
      memo.count > 0 &&
      history[0] === memo.first &&
      history[memo.count - 1] === memo.last
    ) {
      let role = memo.lastRole;
      let mergeNeeded = false;
      let added = "";
      for (let i = memo.count; i < count; i++) {
        const mapped = this.mapMessage(history[i]!);
        for (const m of mapped.messages) {
          if (m.role === role && m.role !== "tool") mergeNeeded = true;
          role = m.role;
        }
        for (const json of mapped.json) added = added ? `${added},${json}` : json;
      }
      if (!mergeNeeded) {
        if (added) memo.json = memo.json ? `${memo.json},${added}` : added;
        memo.count = count;
        memo.last = history[count - 1];
        memo.lastRole = role;
        return memo.json;
      }
    }
    const out: string[] = [];
    const lastRole = this.appendMessages(history, out);
    const json = out.join(",");
    this.memo = count ? { history, count, first: history[0], last: history[count - 1], lastRole, json } : undefined;
    return json;
  }

  /** Appends the history's chat messages as JSON to `out`; returns the last role. */
  private appendMessages(history: Message[], out: string[]): string {
    // Fast path: no two consecutive chat messages share a user/assistant role.
    let previousRole = "";
    let needsMerge = false;
    for (const message of history) {
      const mapped = this.mapMessage(message);
      for (const m of mapped.messages) {
        if (m.role === previousRole && m.role !== "tool") needsMerge = true;
        previousRole = m.role;
      }
    }
    if (!needsMerge) {
      for (const message of history) for (const json of this.mapMessage(message).json) out.push(json);
      return previousRole;
    }
    const all = history.flatMap((message) => this.mapMessage(message).messages);
    const merged = mergeConsecutive(
      all,
      (a) => a.role === "user" || a.role === "assistant",
      (a, b): ChatMessage => {
        if (a.role === "user") {
          const content = [...asParts(a.content), ...asParts(b.content)];
          return { role: "user", content };
        }
        const text = [a.content, b.content].filter((c) => typeof c === "string" && c).join("\n");
        const m: ChatMessage = { role: "assistant", content: text || null };
        const calls = [...(a.tool_calls ?? []), ...(b.tool_calls ?? [])];
        if (calls.length) m.tool_calls = calls;
        const reasoning = [a.reasoning_content, b.reasoning_content].filter(Boolean).join("\n");
        if (reasoning) m.reasoning_content = reasoning;
        if (m.content === null && !m.tool_calls) m.content = "";
        return m;
      },
    );
    for (const m of merged) out.push(JSON.stringify(m));
    return merged[merged.length - 1]?.role ?? "";
  }

  // ---- responses ---------------------------------------------------------

  private finish(
    text: string,
    reasoning: string,
    calls: StreamedCall[],
    usage: ChunkBody["usage"],
    bodyChars: number,
  ): { message: Message; toolCalls: ToolCall[]; tokens_in: number; tokens_out: number } {
    const toolCalls: ToolCall[] = calls.map((c) => ({ tool_name: c.name, input_args: parseArgs(c.args), id: c.id }));
    const visible = this.includeInText && reasoning ? `<think>${reasoning}</think>\n${text}` : text;
    const message: Message = { sender: "agent", text: visible };
    if (toolCalls.length) message.tool_calls = toolCalls;
    if (reasoning && this.reasoningOn) message.reasoning_content = reasoning;
    const outChars = text.length + reasoning.length + calls.reduce((n, c) => n + c.args.length + c.name.length, 0);
    return {
      message,
      toolCalls,
      tokens_in: usage?.prompt_tokens ?? estimateTokens(bodyChars),
      tokens_out: usage?.completion_tokens ?? estimateTokens(outChars),
    };
  }

  private streamError(error: ChunkBody["error"]): ProviderError {
    const e = typeof error === "string" ? { message: error } : (error ?? {});
    const code = e.code ?? e.type;
    return new ProviderError({
      provider: this.provider,
      status: 0,
      retryable: false,
      providerMessage: e.message ?? JSON.stringify(error),
      ...(code !== undefined ? { providerCode: String(code) } : {}),
    });
  }

  private async readJson(response: Response, notify: NotifySubscribersFunction, bodyChars: number): Promise<ModelPromptResult> {
    const raw = await readBody(response.text());
    let json: ChunkBody;
    try {
      json = JSON.parse(raw) as ChunkBody;
    } catch (error) {
      throw new ProviderError({
        provider: this.provider,
        status: response.status,
        retryable: false,
        providerMessage: `unparseable response body: ${raw.slice(0, 200)}`,
        cause: error,
      });
    }
    if (json.error) throw this.streamError(json.error);
    const choice = json.choices?.[0];
    const msg = choice?.message ?? {};
    const reasoning = this.reasoningOn ? (msg.reasoning_content ?? msg.reasoning ?? "") : "";
    const calls: StreamedCall[] = (msg.tool_calls ?? []).map((c, i) => ({
      id: c.id ?? `call_${i}`,
      name: c.function?.name ?? "",
      args: c.function?.arguments ?? "",
    }));
    const done = this.finish(msg.content ?? "", reasoning, calls, json.usage, bodyChars);
    await notify("model_response", {
      text: done.message.text,
      tool_calls: done.toolCalls.length ? done.toolCalls : undefined,
      stop_reason: choice?.finish_reason ?? undefined,
      tokens_in: done.tokens_in,
      tokens_out: done.tokens_out,
    });
    return { messages: [done.message], tokens_in: done.tokens_in, tokens_out: done.tokens_out };
  }

  private async readStream(response: Response, notify: NotifySubscribersFunction, bodyChars: number): Promise<ModelPromptResult> {
    if (!response.body) throw this.streamError("response has no body");
    let text = "";
    let reasoning = "";
    let thinkOpen = false;
    let stopReason: string | undefined;
    let usage: ChunkBody["usage"];
    let sawDone = false;
    const calls: StreamedCall[] = [];
    const byIndex = new Map<number, StreamedCall>();
    const byId = new Map<string, StreamedCall>();

    for await (const batch of readSSEBatches(response.body)) for (const event of batch) {
      if (event.data === "[DONE]") {
        // Keep reading to the end of the body rather than cancelling it: a
        // cancelled body costs an abort (and the connection) for nothing.
        sawDone = true;
        continue;
      }
      if (sawDone) continue;
      let chunk: ChunkBody;
      try {
        chunk = JSON.parse(event.data) as ChunkBody;
      } catch (error) {
        throw new ProviderError({
          provider: this.provider,
          status: response.status,
          retryable: false,
          providerMessage: `malformed stream event: ${event.data.slice(0, 200)}`,
          cause: error,
        });
      }
      if (chunk.error) throw this.streamError(chunk.error);
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const delta = choice.delta;
      if (delta) {
        const r = this.reasoningOn ? (delta.reasoning_content ?? delta.reasoning) : undefined;
        if (r) {
          reasoning += r;
          if (this.includeInText) {
            if (!thinkOpen) {
              thinkOpen = true;
              await notify("text_delta", { text: "<think>" });
            }
            await notify("text_delta", { text: r });
          }
        }
        if (delta.content) {
          if (thinkOpen) {
            thinkOpen = false;
            await notify("text_delta", { text: "</think>\n" });
          }
          text += delta.content;
          await notify("text_delta", { text: delta.content });
        }
        if (delta.tool_calls) {
          for (const d of delta.tool_calls) {
            let call = d.id ? byId.get(d.id) : undefined;
            if (!call && d.index !== undefined) {
              const atIndex = byIndex.get(d.index);
              if (atIndex && (!d.id || atIndex.id === d.id)) call = atIndex;
            }
            if (!call) {
              call = { id: d.id ?? `call_${calls.length}`, name: "", args: "" };
              calls.push(call);
              if (d.id) byId.set(d.id, call);
              byIndex.set(d.index ?? calls.length - 1, call);
            }
            if (d.function?.name) call.name += d.function.name;
            if (d.function?.arguments) call.args += d.function.arguments;
          }
        }
      }
      if (choice.finish_reason) stopReason = choice.finish_reason;
    }
    if (!sawDone && stopReason === undefined) {
      throw new ProviderError({
        provider: this.provider,
        status: 0,
        retryable: true,
        providerMessage: "the stream ended before the response was complete",
      });
    }
    if (thinkOpen) await notify("text_delta", { text: "</think>\n" });

    const done = this.finish(text, reasoning, calls, usage, bodyChars);
    for (const call of done.toolCalls) {
      await notify("tool_use", { id: call.id!, name: call.tool_name, input: call.input_args });
    }
    await notify("model_response_complete", {
      text: done.message.text,
      tool_calls: done.toolCalls.length ? done.toolCalls : undefined,
      stop_reason: stopReason,
      tokens_in: done.tokens_in,
      tokens_out: done.tokens_out,
    });
    return { messages: [done.message], tokens_in: done.tokens_in, tokens_out: done.tokens_out };
  }
}
