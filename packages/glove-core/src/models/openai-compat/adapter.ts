/**
 * OpenAI-compatible chat completions adapter (OpenAI, OpenRouter, Gemini,
 * MiniMax, Kimi, GLM, Ollama, LM Studio and any other server speaking
 * `POST {baseURL}/chat/completions`). Lean transport: the platform's fetch plus
 * our own SSE parser — see docs/decisions/0007-model-transport.md.
 */
import { ConfigurationError } from "../../errors.js";
import type { PromptRequest, Tool } from "../../types/index.js";
import { trimBaseURL } from "../shared/adapter-options.js";
import { HttpModelAdapter, type RequestTarget } from "../shared/http-adapter.js";
import { toolJsonSchema } from "../shared/messages.js";
import { ToolWireCache } from "../shared/tool-wire-cache.js";
import { ChatHistoryEncoder } from "./history-encoder.js";
import { readChatJson } from "./json-reader.js";
import type { OpenAICompatAdapterOptions } from "./options.js";
import { resolveReasoning } from "./reasoning.js";
import { requestBodyHead, responseFormat } from "./request-body.js";
import type { ChatReadContext } from "./response.js";
import { readChatStream } from "./stream-reader.js";

/** Chat-completions tool definitions, shared by every adapter of the process (see ToolWireCache). */
const TOOLS = new ToolWireCache((tool: Tool<unknown>) =>
  JSON.stringify({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: toolJsonSchema(tool) },
  }),
);

/** Talks to any OpenAI-compatible chat completions server: OpenAI, OpenRouter, Gemini, Ollama and others. */
export class OpenAICompatAdapter extends HttpModelAdapter<ChatReadContext> {
  readonly name: string;
  readonly provider: string;
  /** True unless turned off with `nativeStructuredOutput: false`: `request.output` goes out as a JSON-schema response format. */
  readonly supportsStructuredOutput: boolean;
  private readonly requestTarget: RequestTarget;
  protected readonly readContext: ChatReadContext;
  /** The request body without messages and tools, as JSON text minus its closing brace. */
  private readonly bodyHead: string;
  private readonly history: ChatHistoryEncoder;

  constructor(options: OpenAICompatAdapterOptions) {
    if (!options.model) throw new ConfigurationError("OpenAICompatAdapter needs a model name (option `model`).");
    const provider = options.provider ?? "openai";
    super(provider, options, { stream: readChatStream, json: readChatJson });
    this.provider = provider;
    this.supportsStructuredOutput = options.nativeStructuredOutput !== false;
    this.name = `${provider}:${options.model}`;
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...options.headers,
    };
    if (options.apiKey) headers["authorization"] = `Bearer ${options.apiKey}`;
    this.requestTarget = { url: `${trimBaseURL(options.baseURL)}/chat/completions`, headers };
    const reasoning = resolveReasoning(options);
    this.readContext = { provider, reasoning };
    this.history = new ChatHistoryEncoder(reasoning.echo, provider);
    this.bodyHead = requestBodyHead(options, provider, this.stream, reasoning);
  }

  /** The request body this adapter sends for `request` (exposed for tests and benchmarks). */
  buildBody(request: PromptRequest): string {
    const system = this.systemFor(request);
    const history = this.history.json(request.messages);
    const systemJson = system ? JSON.stringify({ role: "system", content: system }) : "";
    const sep = systemJson && history ? "," : "";
    let body = `${this.bodyHead},"messages":[${systemJson}${sep}${history}]`;
    if (request.tools?.length) body += `,"tools":[${request.tools.map((t) => TOOLS.get(t)).join(",")}]`;
    if (request.output && this.supportsStructuredOutput) body += `,"response_format":${responseFormat(request.output)}`;
    return body + "}";
  }

  protected target(): RequestTarget {
    return this.requestTarget;
  }
}
