/**
 * Anthropic Messages API adapter (`POST {baseURL}/v1/messages`), streaming or
 * not. Lean transport: the platform's fetch plus our own SSE parser — see
 * docs/decisions/0007-model-transport.md. Reasoning round trips and structured
 * output: docs/decisions/0014-signed-reasoning-and-in-body-retries.md.
 */
import { ConfigurationError } from "../../errors.js";
import type { Message, PromptRequest, Tool } from "../../types/index.js";
import { trimBaseURL } from "../shared/adapter-options.js";
import { HttpModelAdapter, type RequestTarget } from "../shared/http-adapter.js";
import { toolJsonSchema } from "../shared/messages.js";
import { outputTool } from "../shared/structured-output.js";
import { alternatingTurns, messageTurn, type TurnBlocks } from "../shared/turns.js";
import { ToolWireCache } from "../shared/tool-wire-cache.js";
import { WireCache } from "../shared/wire-cache.js";
import { anthropicBlocks } from "./content-blocks.js";
import { readMessagesJson } from "./json-reader.js";
import type { AnthropicAdapterOptions, AnthropicUsage } from "./options.js";
import { readMessagesStream } from "./stream-reader.js";
import { checkThinking, INTERLEAVED_THINKING_BETA, loopStartedWithoutThinking } from "./thinking.js";
import type { MessagesReadContext } from "./usage.js";
import type { Block } from "./wire-types.js";

const ANTHROPIC_TURN_KINDS = {
  reasoning: (block: Block) => block.type === "thinking" || block.type === "redacted_thinking",
  toolResult: (block: Block) => block.type === "tool_result",
};

/** Messages-API tool definitions, shared by every adapter of the process (see ToolWireCache). */
const TOOLS = new ToolWireCache((tool: Tool<unknown>) =>
  JSON.stringify({ name: tool.name, description: tool.description, input_schema: toolJsonSchema(tool) }),
);

/** Talks to Anthropic's Messages API, streaming or not, with prompt caching of the system prompt. */
export class AnthropicAdapter extends HttpModelAdapter<MessagesReadContext> {
  readonly name: string;
  readonly provider: string;
  /** `PromptRequest.output` is honoured: natively (`output_config`) or through a forced answer tool. */
  readonly supportsStructuredOutput = true;
  /** Usage of the last completed prompt, with cache token counts. */
  lastUsage: AnthropicUsage | undefined;
  private readonly requestTarget: RequestTarget;
  protected readonly readContext: MessagesReadContext;
  private readonly bodyHead: string;
  private readonly thinking: string | undefined;
  private readonly cacheSystemPrompt: boolean;
  private readonly structuredOutput: "native" | "tool";
  private readonly blocks: TurnBlocks<Block>;
  private readonly turns = new WireCache((message: Message) => messageTurn(message, this.blocks));

  constructor(options: AnthropicAdapterOptions) {
    if (!options.model) throw new ConfigurationError("AnthropicAdapter needs a model name (option `model`).");
    const provider = options.provider ?? "anthropic";
    super(provider, options, { stream: readMessagesStream, json: readMessagesJson });
    this.provider = provider;
    this.name = `${provider}:${options.model}`;
    this.blocks = anthropicBlocks(provider);
    const maxTokens = options.maxTokens ?? 8192;
    checkThinking(options.thinking, maxTokens, options.interleavedThinking === true, "AnthropicAdapter");
    this.structuredOutput = options.structuredOutput ?? "native";
    // Manual thinking refuses a forced tool choice; adaptive thinking accepts it.
    if (this.structuredOutput === "tool" && options.thinking?.type === "enabled") {
      throw new ConfigurationError(
        'AnthropicAdapter: structuredOutput "tool" forces a tool choice, which the API refuses with thinking { type: "enabled" }: use structuredOutput "native", adaptive thinking, or turn thinking off.',
      );
    }
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "anthropic-version": options.version ?? "2023-06-01",
      ...options.headers,
    };
    if (options.interleavedThinking) {
      const beta = headers["anthropic-beta"];
      headers["anthropic-beta"] = beta ? `${beta},${INTERLEAVED_THINKING_BETA}` : INTERLEAVED_THINKING_BETA;
    }
    if (options.apiKey) headers["x-api-key"] = options.apiKey;
    this.requestTarget = { url: `${trimBaseURL(options.baseURL ?? "https://api.anthropic.com")}/v1/messages`, headers };
    this.readContext = { provider, recordUsage: (usage) => (this.lastUsage = usage) };
    this.cacheSystemPrompt = options.cacheSystemPrompt !== false;
    const head: Record<string, unknown> = { model: options.model, max_tokens: maxTokens };
    if (this.stream) head["stream"] = true;
    this.thinking = options.thinking ? JSON.stringify(options.thinking) : undefined;
    this.bodyHead = JSON.stringify(head).slice(0, -1);
  }

  /** The request body this adapter sends for `request`. */
  buildBody(request: PromptRequest): string {
    const system = this.systemFor(request);
    const messages = alternatingTurns(
      request.messages.map((m) => this.turns.get(m)),
      this.blocks,
    );
    let body = this.bodyHead;
    if (this.thinking && !loopStartedWithoutThinking(messages, ANTHROPIC_TURN_KINDS))
      body += `,"thinking":${this.thinking}`;
    if (system) {
      const block: Block = { type: "text", text: system };
      if (this.cacheSystemPrompt) block["cache_control"] = { type: "ephemeral" };
      body += `,"system":${JSON.stringify([block])}`;
    }
    body += `,"messages":${JSON.stringify(messages)}`;
    const tools = (request.tools ?? []).map((t) => TOOLS.get(t));
    const output = request.output;
    if (output && this.structuredOutput === "tool") {
      const tool = outputTool(output);
      tools.push(JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.schema }));
      body += `,"tool_choice":${JSON.stringify({ type: "tool", name: tool.name })}`;
    } else if (output) {
      body += `,"output_config":${JSON.stringify({ format: { type: "json_schema", schema: output.schema } })}`;
    }
    if (tools.length) body += `,"tools":[${tools.join(",")}]`;
    return body + "}";
  }

  protected override contextFor(request: PromptRequest): MessagesReadContext {
    if (!request.output || this.structuredOutput !== "tool") return this.readContext;
    return { ...this.readContext, outputTool: request.output.name };
  }

  protected target(): RequestTarget {
    return this.requestTarget;
  }
}
