/**
 * Amazon Bedrock adapter on the Converse / ConverseStream API, signed with
 * SigV4 (Web Crypto) or sent with a Bedrock API key (bearer token). The stream
 * is AWS's binary event stream, decoded by ./shared/aws.ts.
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
import { EventStreamDecoder, signV4, type AwsCredentials, type EventStreamError } from "./shared/aws.js";
import {
  argsObject,
  estimateTokens,
  isErrorResult,
  mergeConsecutive,
  parseArgs,
  readEnv,
  toolJsonSchema,
  toolResultPayload,
  userParts,
} from "./shared/messages.js";
import { BodyReadError, isRetryableStatus, post, readBody, type TransportOptions } from "./shared/transport.js";

export { ProviderError } from "../errors.js";
export type { AwsCredentials } from "./shared/aws.js";

export interface BedrockAdapterOptions {
  model: string;
  /** Default AWS_REGION, AWS_DEFAULT_REGION, then us-east-1. */
  region?: string;
  /** Default from the environment: AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN. */
  credentials?: AwsCredentials | undefined;
  /** A Bedrock API key (AWS_BEARER_TOKEN_BEDROCK), used instead of SigV4 when no credentials are set. */
  bearerToken?: string;
  /** Default https://bedrock-runtime.{region}.amazonaws.com. */
  baseURL?: string;
  maxTokens?: number;
  /** ConverseStream (default true) or Converse. */
  stream?: boolean;
  timeout?: number;
  systemPrompt?: string;
  headers?: Record<string, string>;
  maxRetries?: number;
  retryBaseDelayMs?: number;
  maxRetryDelayMs?: number;
  fetch?: typeof fetch;
}

type Block = Record<string, unknown>;
interface ConverseMessage {
  role: "user" | "assistant";
  content: Block[];
}
interface BedrockUsage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadInputTokens?: number;
  cacheWriteInputTokens?: number;
}

const IMAGE_FORMATS = new Set(["png", "jpeg", "gif", "webp"]);
const DOC_FORMATS: Record<string, string> = {
  "application/pdf": "pdf",
  "text/csv": "csv",
  "application/msword": "doc",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.ms-excel": "xls",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "text/html": "html",
  "text/plain": "txt",
  "text/markdown": "md",
};

/** A user content part as a Converse content block. Converse takes bytes only (no URLs). */
export function toConverseBlock(part: ContentPart, index: number): Block {
  if (part.type === "text") return { text: part.text ?? "" };
  const source = part.source;
  if (source?.data !== undefined) {
    if (part.type === "image") {
      const format = source.media_type.split("/")[1]?.replace("jpg", "jpeg") ?? "";
      if (IMAGE_FORMATS.has(format)) return { image: { format, source: { bytes: source.data } } };
    }
    if (part.type === "document") {
      const format = DOC_FORMATS[source.media_type];
      if (format) return { document: { format, name: `document ${index + 1}`, source: { bytes: source.data } } };
    }
  }
  const where = source?.url ? `: ${source.url}` : "";
  return { text: `[${part.type} (${source?.media_type ?? "unknown type"}) omitted: not supported by Bedrock Converse${where}]` };
}

export class BedrockAdapter implements ModelAdapter {
  readonly name: string;
  readonly model: string;
  readonly region: string;
  private systemPrompt: string;
  private readonly base: string;
  private readonly transport: TransportOptions;
  private readonly stream: boolean;
  private readonly credentials: AwsCredentials | undefined;
  private readonly bearerToken: string | undefined;
  private readonly cache = new WeakMap<Message, ConverseMessage | null>();
  private readonly toolCache = new WeakMap<Tool<unknown>, Block>();

  constructor(private readonly options: BedrockAdapterOptions) {
    if (!options.model) throw new ConfigurationError("BedrockAdapter needs a model id (option `model`).");
    this.model = options.model;
    this.name = `bedrock:${options.model}`;
    this.region = options.region ?? readEnv("AWS_REGION") ?? readEnv("AWS_DEFAULT_REGION") ?? "us-east-1";
    this.base = (options.baseURL ?? `https://bedrock-runtime.${this.region}.amazonaws.com`).replace(/\/+$/, "");
    this.systemPrompt = options.systemPrompt ?? "";
    this.stream = options.stream ?? true;
    if (options.credentials) {
      this.credentials = options.credentials;
    } else if (!options.bearerToken) {
      const accessKeyId = readEnv("AWS_ACCESS_KEY_ID");
      const secretAccessKey = readEnv("AWS_SECRET_ACCESS_KEY");
      const sessionToken = readEnv("AWS_SESSION_TOKEN");
      if (accessKeyId && secretAccessKey) this.credentials = { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
    }
    this.bearerToken = this.credentials ? undefined : (options.bearerToken ?? readEnv("AWS_BEARER_TOKEN_BEDROCK"));
    if (!this.credentials && !this.bearerToken) {
      throw new ConfigurationError(
        "BedrockAdapter needs AWS credentials: AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY (+ AWS_SESSION_TOKEN), AWS_BEARER_TOKEN_BEDROCK, or the credentials option.",
      );
    }
    this.transport = {
      provider: "bedrock",
      timeoutMs: options.timeout ?? 600_000,
      ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
      ...(options.retryBaseDelayMs !== undefined ? { retryBaseDelayMs: options.retryBaseDelayMs } : {}),
      ...(options.maxRetryDelayMs !== undefined ? { maxRetryDelayMs: options.maxRetryDelayMs } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    };
  }

  setSystemPrompt(systemPrompt: string): void {
    this.systemPrompt = systemPrompt;
  }

  /** The Converse request body for `request`. */
  buildBody(request: PromptRequest): string {
    const body: Record<string, unknown> = { messages: this.mapMessages(request.messages) };
    const system = request.systemPrompt ?? this.systemPrompt;
    if (system) body["system"] = [{ text: system }];
    body["inferenceConfig"] = { maxTokens: this.options.maxTokens ?? 4096 };
    if (request.tools?.length) body["toolConfig"] = { tools: request.tools.map((t) => this.toolSpec(t)) };
    return JSON.stringify(body);
  }

  async prompt(request: PromptRequest, notify: NotifySubscribersFunction, signal?: AbortSignal): Promise<ModelPromptResult> {
    const body = this.buildBody(request);
    const url = `${this.base}/model/${encodeURIComponent(this.model)}/${this.stream ? "converse-stream" : "converse"}`;
    const baseHeaders: Record<string, string> = {
      "content-type": "application/json",
      accept: this.stream ? "application/vnd.amazon.eventstream" : "application/json",
      ...this.options.headers,
    };
    const headers = this.credentials
      ? await signV4({ method: "POST", url, headers: baseHeaders, body, region: this.region, service: "bedrock", credentials: this.credentials })
      : { ...baseHeaders, authorization: `Bearer ${this.bearerToken}` };
    const open = await post(this.transport, { url, headers, body, signal });
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

  private toolSpec(tool: Tool<unknown>): Block {
    let spec = this.toolCache.get(tool);
    if (!spec) {
      spec = { toolSpec: { name: tool.name, description: tool.description, inputSchema: { json: toolJsonSchema(tool) } } };
      this.toolCache.set(tool, spec);
    }
    return spec;
  }

  private mapMessage(message: Message): ConverseMessage | null {
    const cached = this.cache.get(message);
    if (cached !== undefined) return cached;
    const content: Block[] = [];
    if (message.sender === "agent") {
      if (message.text) content.push({ text: message.text });
      for (const [i, call] of (message.tool_calls ?? []).entries()) {
        content.push({ toolUse: { toolUseId: call.id ?? `tooluse_${i}`, name: call.tool_name, input: argsObject(call.input_args) } });
      }
    } else {
      for (const r of message.tool_results ?? []) {
        content.push({
          toolResult: {
            toolUseId: r.call_id ?? r.tool_name,
            content: [{ json: toolResultPayload(r.result) }],
            status: isErrorResult(r.result) ? "error" : "success",
          },
        });
      }
      userParts(message).forEach((part, i) => {
        if (part.type === "text" && !part.text) return;
        content.push(toConverseBlock(part, i));
      });
    }
    const mapped: ConverseMessage | null = content.length ? { role: message.sender === "agent" ? "assistant" : "user", content } : null;
    this.cache.set(message, mapped);
    return mapped;
  }

  private mapMessages(history: Message[]): ConverseMessage[] {
    const mapped: ConverseMessage[] = [];
    for (const m of history) {
      const c = this.mapMessage(m);
      if (c) mapped.push(c);
    }
    // Converse wants the conversation to open with a user turn.
    if (mapped[0]?.role === "assistant") mapped.unshift({ role: "user", content: [{ text: "(continuing the conversation)" }] });
    let docCount = 0;
    const merged = mergeConsecutive(
      mapped,
      () => true,
      (a, b) => {
        const content = [...a.content, ...b.content];
        if (a.role === "user") content.sort((x, y) => Number("toolResult" in y) - Number("toolResult" in x));
        return { role: a.role, content };
      },
    );
    // Document names must be unique within a request.
    for (const m of merged) {
      for (let i = 0; i < m.content.length; i++) {
        const doc = m.content[i]!["document"] as Block | undefined;
        if (doc) m.content[i] = { document: { ...doc, name: `document ${++docCount}` } };
      }
    }
    return merged;
  }

  // ---- responses ---------------------------------------------------------

  private result(text: string, reasoning: string, toolCalls: ToolCall[], usage: BedrockUsage, bodyChars: number) {
    const message: Message = { sender: "agent", text };
    if (toolCalls.length) message.tool_calls = toolCalls;
    if (reasoning) message.reasoning_content = reasoning;
    const tokens_in =
      usage.inputTokens !== undefined
        ? usage.inputTokens + (usage.cacheReadInputTokens ?? 0) + (usage.cacheWriteInputTokens ?? 0)
        : estimateTokens(bodyChars);
    const tokens_out = usage.outputTokens ?? estimateTokens(text.length + reasoning.length);
    return { messages: [message], tokens_in, tokens_out };
  }

  private async readJson(response: Response, notify: NotifySubscribersFunction, bodyChars: number): Promise<ModelPromptResult> {
    const raw = await readBody(response.text());
    let json: { output?: { message?: { content?: Block[] } }; stopReason?: string; usage?: BedrockUsage };
    try {
      json = JSON.parse(raw) as typeof json;
    } catch (error) {
      throw new ProviderError({ provider: "bedrock", status: response.status, retryable: false, providerMessage: `unparseable response body: ${raw.slice(0, 200)}`, cause: error });
    }
    let text = "";
    let reasoning = "";
    const toolCalls: ToolCall[] = [];
    for (const block of json.output?.message?.content ?? []) {
      if (typeof block["text"] === "string") text += block["text"];
      const use = block["toolUse"] as { toolUseId: string; name: string; input?: unknown } | undefined;
      if (use) toolCalls.push({ tool_name: use.name, input_args: use.input ?? {}, id: use.toolUseId });
      const rc = block["reasoningContent"] as { reasoningText?: { text?: string } } | undefined;
      if (rc?.reasoningText?.text) reasoning += rc.reasoningText.text;
    }
    const result = this.result(text, reasoning, toolCalls, json.usage ?? {}, bodyChars);
    await notify("model_response", {
      text,
      tool_calls: toolCalls.length ? toolCalls : undefined,
      stop_reason: json.stopReason ?? undefined,
      tokens_in: result.tokens_in,
      tokens_out: result.tokens_out,
    });
    return result;
  }

  private async readStream(response: Response, notify: NotifySubscribersFunction, bodyChars: number): Promise<ModelPromptResult> {
    if (!response.body) throw new ProviderError({ provider: "bedrock", status: 0, retryable: true, providerMessage: "response has no body" });
    const decoder = new EventStreamDecoder();
    const textDecoder = new TextDecoder();
    let text = "";
    let reasoning = "";
    let stopReason: string | undefined;
    let usage: BedrockUsage = {};
    let sawStop = false;
    const toolCalls: ToolCall[] = [];
    const tools = new Map<number, { id: string; name: string; json: string }>();
    const reader = response.body.getReader();
    let finished = false;
    try {
      for (;;) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (error) {
          throw new BodyReadError(error);
        }
        const { done, value } = chunk;
        if (done) {
          finished = true;
          break;
        }
        let messages;
        try {
          messages = decoder.push(value);
        } catch (error) {
          throw new ProviderError({
            provider: "bedrock",
            status: response.status,
            retryable: false,
            providerMessage: `malformed event stream: ${(error as EventStreamError).message}`,
            cause: error,
          });
        }
        for (const { headers, payload } of messages) {
          const raw = textDecoder.decode(payload);
          let data: Record<string, unknown>;
          try {
            data = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
          } catch (error) {
            throw new ProviderError({ provider: "bedrock", status: response.status, retryable: false, providerMessage: `malformed stream event: ${raw.slice(0, 200)}`, cause: error });
          }
          if (headers[":message-type"] === "exception" || headers[":message-type"] === "error") {
            const type = String(headers[":exception-type"] ?? headers[":error-code"] ?? "error");
            const status = EXCEPTION_STATUS[type] ?? 0;
            throw new ProviderError({
              provider: "bedrock",
              status,
              retryable: status !== 0 && isRetryableStatus(status),
              providerMessage: String(data["message"] ?? data["Message"] ?? headers[":error-message"] ?? raw),
              providerCode: type,
            });
          }
          switch (headers[":event-type"]) {
            case "contentBlockStart": {
              const start = (data["start"] as { toolUse?: { toolUseId: string; name: string } } | undefined)?.toolUse;
              if (start) tools.set(data["contentBlockIndex"] as number, { id: start.toolUseId, name: start.name, json: "" });
              break;
            }
            case "contentBlockDelta": {
              const delta = (data["delta"] ?? {}) as { text?: string; toolUse?: { input?: string }; reasoningContent?: { text?: string } };
              if (delta.text) {
                text += delta.text;
                await notify("text_delta", { text: delta.text });
              }
              if (delta.toolUse) {
                const index = data["contentBlockIndex"] as number;
                const entry = tools.get(index);
                if (entry) entry.json += delta.toolUse.input ?? "";
              }
              if (delta.reasoningContent?.text) reasoning += delta.reasoningContent.text;
              break;
            }
            case "contentBlockStop": {
              const index = data["contentBlockIndex"] as number;
              const entry = tools.get(index);
              if (entry) {
                const call: ToolCall = { tool_name: entry.name, input_args: parseArgs(entry.json), id: entry.id };
                toolCalls.push(call);
                tools.delete(index);
                await notify("tool_use", { id: entry.id, name: entry.name, input: call.input_args });
              }
              break;
            }
            case "messageStop":
              sawStop = true;
              stopReason = (data["stopReason"] as string | undefined) ?? undefined;
              break;
            case "metadata":
              usage = (data["usage"] as BedrockUsage | undefined) ?? {};
              break;
            default:
              break;
          }
        }
      }
    } finally {
      if (!finished) reader.cancel().catch(() => {});
      reader.releaseLock();
    }
    if (!sawStop) {
      throw new ProviderError({ provider: "bedrock", status: 0, retryable: true, providerMessage: "the stream ended before messageStop" });
    }
    const result = this.result(text, reasoning, toolCalls, usage, bodyChars);
    await notify("model_response_complete", {
      text,
      tool_calls: toolCalls.length ? toolCalls : undefined,
      stop_reason: stopReason,
      tokens_in: result.tokens_in,
      tokens_out: result.tokens_out,
    });
    return result;
  }
}

/** HTTP statuses of ConverseStream's in-stream exceptions. */
const EXCEPTION_STATUS: Record<string, number> = {
  throttlingException: 429,
  serviceUnavailableException: 503,
  internalServerException: 500,
  modelStreamErrorException: 424,
  validationException: 400,
  modelTimeoutException: 408,
};
