/**
 * Anthropic Messages API adapter (`POST {baseURL}/v1/messages`), streaming or
 * not. Lean transport: the platform's fetch plus our own SSE parser — see
 * docs/decisions/0007-model-transport.md.
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
  argsObject,
  estimateTokens,
  isErrorResult,
  mergeConsecutive,
  parseArgs,
  toolJsonSchema,
  toolResultContent,
  userParts,
} from "./shared/messages.js";
import { readSSEBatches } from "./shared/sse.js";
import { isRetryableStatus, post, readBody, type TransportOptions } from "./shared/transport.js";

export { ProviderError } from "../errors.js";

export interface AnthropicAdapterOptions {
  model: string;
  apiKey?: string;
  /** Default https://api.anthropic.com; `/v1/messages` is appended. */
  baseURL?: string;
  /** Required by the API (default 8192). */
  maxTokens?: number;
  /** Stream the answer (default true). */
  stream?: boolean;
  /** Per-attempt timeout in ms (default 600 000). */
  timeout?: number;
  /** anthropic-version header (default 2023-06-01). */
  version?: string;
  /** Mark the system prompt as a prompt-cache breakpoint (default true). */
  cacheSystemPrompt?: boolean;
  /** Extended thinking, sent verbatim (e.g. { type: "enabled", budget_tokens: 2048 }). */
  thinking?: { type: "enabled" | "disabled"; budget_tokens?: number };
  /** Extra headers (e.g. anthropic-beta). */
  headers?: Record<string, string>;
  /** Used when a request carries no systemPrompt. */
  systemPrompt?: string;
  /** Provider id for the adapter name and errors (default "anthropic"). */
  provider?: string;
  maxRetries?: number;
  retryBaseDelayMs?: number;
  maxRetryDelayMs?: number;
  fetch?: typeof fetch;
}

type Block = Record<string, unknown> & { type: string };

/** Sent as the opening user turn when a history starts with the model's turn. */
const CONTINUE_TEXT = "(continuing the conversation)";

interface AnthropicMessage {
  role: "user" | "assistant";
  content: Block[];
}

interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** Token counts of the last prompt, including the cache split. */
export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** One user content part as an Anthropic block (images and documents, base64 or URL). */
export function toAnthropicBlock(part: ContentPart): Block {
  if (part.type === "text") return { type: "text", text: part.text ?? "" };
  const source = part.source;
  if ((part.type === "image" || part.type === "document") && source) {
    const src =
      source.type === "url" || (source.data === undefined && source.url)
        ? { type: "url", url: source.url }
        : source.media_type === "text/plain" && part.type === "document"
          ? { type: "text", media_type: "text/plain", data: decodeBase64Text(source.data ?? "") }
          : { type: "base64", media_type: source.media_type, data: source.data };
    return { type: part.type, source: src };
  }
  return { type: "text", text: `[${part.type} omitted: not supported by the Messages API]` };
}

function decodeBase64Text(data: string): string {
  try {
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return data;
  }
}

export class AnthropicAdapter implements ModelAdapter {
  readonly name: string;
  readonly provider: string;
  readonly model: string;
  /** Usage of the last completed prompt, with cache token counts. */
  lastUsage: AnthropicUsage | undefined;
  private systemPrompt: string;
  private readonly url: string;
  private readonly headers: Record<string, string>;
  private readonly transport: TransportOptions;
  private readonly stream: boolean;
  private readonly bodyHead: string;
  private readonly cache = new WeakMap<Message, AnthropicMessage | null>();
  private readonly toolCache = new WeakMap<Tool<unknown>, string>();

  constructor(private readonly options: AnthropicAdapterOptions) {
    if (!options.model) throw new ConfigurationError("AnthropicAdapter needs a model name (option `model`).");
    this.provider = options.provider ?? "anthropic";
    this.model = options.model;
    this.name = `${this.provider}:${options.model}`;
    this.systemPrompt = options.systemPrompt ?? "";
    this.url = `${(options.baseURL ?? "https://api.anthropic.com").replace(/\/+$/, "")}/v1/messages`;
    this.headers = {
      "content-type": "application/json",
      "anthropic-version": options.version ?? "2023-06-01",
      ...options.headers,
    };
    if (options.apiKey) this.headers["x-api-key"] = options.apiKey;
    this.transport = {
      provider: this.provider,
      timeoutMs: options.timeout ?? 600_000,
      ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
      ...(options.retryBaseDelayMs !== undefined ? { retryBaseDelayMs: options.retryBaseDelayMs } : {}),
      ...(options.maxRetryDelayMs !== undefined ? { maxRetryDelayMs: options.maxRetryDelayMs } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    };
    this.stream = options.stream ?? true;
    const head: Record<string, unknown> = { model: options.model, max_tokens: options.maxTokens ?? 8192 };
    if (options.thinking) head["thinking"] = options.thinking;
    if (this.stream) head["stream"] = true;
    this.bodyHead = JSON.stringify(head).slice(0, -1);
  }

  setSystemPrompt(systemPrompt: string): void {
    this.systemPrompt = systemPrompt;
  }

  /** The request body this adapter sends for `request`. */
  buildBody(request: PromptRequest): string {
    const system = request.systemPrompt ?? this.systemPrompt;
    let body = this.bodyHead;
    if (system) {
      const block: Block = { type: "text", text: system };
      if (this.options.cacheSystemPrompt !== false) block["cache_control"] = { type: "ephemeral" };
      body += `,"system":${JSON.stringify([block])}`;
    }
    body += `,"messages":${JSON.stringify(this.mapMessages(request.messages))}`;
    if (request.tools?.length) body += `,"tools":[${request.tools.map((t) => this.toolJson(t)).join(",")}]`;
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
      json = JSON.stringify({ name: tool.name, description: tool.description, input_schema: toolJsonSchema(tool) });
      this.toolCache.set(tool, json);
    }
    return json;
  }

  private mapMessage(message: Message): AnthropicMessage | null {
    const cached = this.cache.get(message);
    if (cached !== undefined) return cached;
    let mapped: AnthropicMessage | null;
    if (message.sender === "agent") {
      const content: Block[] = [];
      if (message.text) content.push({ type: "text", text: message.text });
      for (const [i, call] of (message.tool_calls ?? []).entries()) {
        content.push({ type: "tool_use", id: call.id ?? `toolu_${i}`, name: call.tool_name, input: argsObject(call.input_args) });
      }
      mapped = content.length ? { role: "assistant", content } : null;
    } else {
      const content: Block[] = [];
      for (const r of message.tool_results ?? []) {
        const block: Block = { type: "tool_result", tool_use_id: r.call_id ?? r.tool_name, content: toolResultContent(r.result) };
        if (isErrorResult(r.result)) block["is_error"] = true;
        content.push(block);
      }
      for (const part of userParts(message)) {
        if (part.type === "text" && !part.text) continue;
        content.push(toAnthropicBlock(part));
      }
      mapped = content.length ? { role: "user", content } : null;
    }
    this.cache.set(message, mapped);
    return mapped;
  }

  /**
   * Anthropic wants alternating roles: consecutive same-role messages are merged
   * (every block kept, images and documents included), with a user turn's
   * tool_result blocks first as the API requires.
   */
  private mapMessages(history: Message[]): AnthropicMessage[] {
    const mapped: AnthropicMessage[] = [];
    for (const m of history) {
      const a = this.mapMessage(m);
      if (a) mapped.push(a);
    }
    // The Messages API wants the conversation to open with a user turn.
    if (mapped[0]?.role === "assistant") mapped.unshift({ role: "user", content: [{ type: "text", text: CONTINUE_TEXT }] });
    return mergeConsecutive(
      mapped,
      () => true,
      (a, b) => {
        const content = [...a.content, ...b.content];
        if (a.role === "user") {
          content.sort((x, y) => Number(y.type === "tool_result") - Number(x.type === "tool_result"));
        }
        return { role: a.role, content };
      },
    );
  }

  // ---- responses ---------------------------------------------------------

  private usage(u: Usage | undefined, bodyChars: number, outChars: number): AnthropicUsage {
    const usage: AnthropicUsage = {
      input_tokens: u?.input_tokens ?? estimateTokens(bodyChars),
      output_tokens: u?.output_tokens ?? estimateTokens(outChars),
      cache_creation_input_tokens: u?.cache_creation_input_tokens ?? 0,
      cache_read_input_tokens: u?.cache_read_input_tokens ?? 0,
    };
    this.lastUsage = usage;
    return usage;
  }

  private result(text: string, reasoning: string, toolCalls: ToolCall[], usage: AnthropicUsage): ModelPromptResult {
    const message: Message = { sender: "agent", text };
    if (toolCalls.length) message.tool_calls = toolCalls;
    if (reasoning) message.reasoning_content = reasoning;
    // tokens_in counts every input token, cached or not: compaction sizes the context with it.
    const tokens_in = usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
    return { messages: [message], tokens_in, tokens_out: usage.output_tokens };
  }

  private async readJson(response: Response, notify: NotifySubscribersFunction, bodyChars: number): Promise<ModelPromptResult> {
    const raw = await readBody(response.text());
    let json: { content?: Block[]; stop_reason?: string | null; usage?: Usage };
    try {
      json = JSON.parse(raw) as typeof json;
    } catch (error) {
      throw new ProviderError({
        provider: this.provider,
        status: response.status,
        retryable: false,
        providerMessage: `unparseable response body: ${raw.slice(0, 200)}`,
        cause: error,
      });
    }
    let text = "";
    let reasoning = "";
    const toolCalls: ToolCall[] = [];
    for (const block of json.content ?? []) {
      if (block.type === "text") text += String(block["text"] ?? "");
      else if (block.type === "thinking") reasoning += String(block["thinking"] ?? "");
      else if (block.type === "tool_use") {
        toolCalls.push({ tool_name: String(block["name"]), input_args: block["input"] ?? {}, id: String(block["id"]) });
      }
    }
    const usage = this.usage(json.usage, bodyChars, text.length + reasoning.length);
    const result = this.result(text, reasoning, toolCalls, usage);
    await notify("model_response", {
      text,
      tool_calls: toolCalls.length ? toolCalls : undefined,
      stop_reason: json.stop_reason ?? undefined,
      tokens_in: result.tokens_in,
      tokens_out: result.tokens_out,
    });
    return result;
  }

  private async readStream(response: Response, notify: NotifySubscribersFunction, bodyChars: number): Promise<ModelPromptResult> {
    if (!response.body) throw this.fail("response has no body", 0, false);
    let text = "";
    let reasoning = "";
    let stopReason: string | undefined;
    let usage: Usage = {};
    let stopped = false;
    const toolCalls: ToolCall[] = [];
    const blocks = new Map<number, { type: string; id?: string; name?: string; json: string }>();

    for await (const batch of readSSEBatches(response.body)) for (const event of batch) {
      let data: Record<string, unknown>;
      try {
        data = JSON.parse(event.data) as Record<string, unknown>;
      } catch (error) {
        throw new ProviderError({
          provider: this.provider,
          status: response.status,
          retryable: false,
          providerMessage: `malformed stream event: ${event.data.slice(0, 200)}`,
          cause: error,
        });
      }
      // After message_stop, read on to the end of the body (cheaper than cancelling it).
      if (stopped) continue;
      const type = (data["type"] as string | undefined) ?? event.event;
      switch (type) {
        case "message_start": {
          const message = data["message"] as { usage?: Usage } | undefined;
          if (message?.usage) usage = { ...usage, ...message.usage };
          break;
        }
        case "content_block_start": {
          const block = data["content_block"] as Block;
          const index = data["index"] as number;
          const entry: { type: string; id?: string; name?: string; json: string } = { type: block.type, json: "" };
          if (block.type === "tool_use") {
            entry.id = String(block["id"]);
            entry.name = String(block["name"]);
          } else if (block.type === "text" && typeof block["text"] === "string" && block["text"]) {
            text += block["text"];
            await notify("text_delta", { text: block["text"] });
          } else if (block.type === "thinking" && typeof block["thinking"] === "string") {
            reasoning += block["thinking"];
          }
          blocks.set(index, entry);
          break;
        }
        case "content_block_delta": {
          const delta = data["delta"] as Record<string, unknown>;
          const entry = blocks.get(data["index"] as number);
          switch (delta["type"]) {
            case "text_delta": {
              const chunk = String(delta["text"] ?? "");
              if (chunk) {
                text += chunk;
                await notify("text_delta", { text: chunk });
              }
              break;
            }
            case "input_json_delta":
              if (entry) entry.json += String(delta["partial_json"] ?? "");
              break;
            case "thinking_delta":
              reasoning += String(delta["thinking"] ?? "");
              break;
            default:
              // signature_delta, citations_delta…: nothing to surface
              break;
          }
          break;
        }
        case "content_block_stop": {
          const index = data["index"] as number;
          const entry = blocks.get(index);
          if (entry?.type === "tool_use") {
            const call: ToolCall = { tool_name: entry.name!, input_args: parseArgs(entry.json), id: entry.id! };
            toolCalls.push(call);
            await notify("tool_use", { id: call.id!, name: call.tool_name, input: call.input_args });
          }
          blocks.delete(index);
          break;
        }
        case "message_delta": {
          const delta = data["delta"] as { stop_reason?: string | null } | undefined;
          if (delta?.stop_reason) stopReason = delta.stop_reason;
          const u = data["usage"] as Usage | undefined;
          if (u) {
            for (const [k, v] of Object.entries(u)) if (v !== null && v !== undefined) (usage as Record<string, unknown>)[k] = v;
          }
          break;
        }
        case "message_stop":
          stopped = true;
          break;
        case "error": {
          const err = (data["error"] ?? {}) as { type?: string; message?: string };
          const status = err.type === "overloaded_error" ? 529 : err.type === "rate_limit_error" ? 429 : err.type === "api_error" ? 500 : 0;
          throw new ProviderError({
            provider: this.provider,
            status,
            retryable: status !== 0 && isRetryableStatus(status),
            providerMessage: err.message ?? event.data,
            ...(err.type ? { providerCode: err.type } : {}),
          });
        }
        default:
          // ping and future event types
          break;
      }
    }
    if (!stopped) throw this.fail("the stream ended before message_stop", 0, true);

    const usageOut = this.usage(usage, bodyChars, text.length + reasoning.length);
    const result = this.result(text, reasoning, toolCalls, usageOut);
    await notify("model_response_complete", {
      text,
      tool_calls: toolCalls.length ? toolCalls : undefined,
      stop_reason: stopReason,
      tokens_in: result.tokens_in,
      tokens_out: result.tokens_out,
    });
    return result;
  }

  private fail(message: string, status: number, retryable: boolean): ProviderError {
    return new ProviderError({ provider: this.provider, status, retryable, providerMessage: message });
  }
}
