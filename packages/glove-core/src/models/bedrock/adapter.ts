/**
 * Amazon Bedrock adapter on the Converse / ConverseStream API, signed with
 * SigV4 (Web Crypto) or sent with a Bedrock API key (bearer token). The stream
 * is AWS's binary event stream, decoded by ../shared/aws.ts. Signed reasoning is
 * kept and sent back; structured output goes through a forced answer tool.
 */
import { ConfigurationError } from "../../errors.js";
import type { Message, PromptRequest, Tool } from "../../types/index.js";
import { trimBaseURL } from "../shared/adapter-options.js";
import { signV4 } from "../shared/aws.js";
import { awsRegion } from "../shared/env.js";
import { checkThinking, INTERLEAVED_THINKING_BETA, loopStartedWithoutThinking } from "../anthropic/thinking.js";
import { HttpModelAdapter, type RequestTarget } from "../shared/http-adapter.js";
import { toolJsonSchema } from "../shared/messages.js";
import { alternatingTurns, messageTurn } from "../shared/turns.js";
import { outputTool } from "../shared/structured-output.js";
import { ToolWireCache } from "../shared/tool-wire-cache.js";
import { WireCache } from "../shared/wire-cache.js";
import { CONVERSE_BLOCKS, numberDocuments } from "./content-blocks.js";
import { bedrockAuth, resolveCredentials, type BedrockAuth } from "./credentials.js";
import { readConverseJson } from "./json-reader.js";
import type { BedrockAdapterOptions } from "./options.js";
import { BEDROCK_PROVIDER } from "./reasoning.js";
import type { ConverseReadContext } from "./result.js";
import { readConverseStream } from "./stream-reader.js";
import type { Block } from "./wire-types.js";

const CONVERSE_TURN_KINDS = {
  reasoning: (block: Block) => "reasoningContent" in block,
  toolResult: (block: Block) => "toolResult" in block,
};

/** Converse tool specs, shared by every adapter of the process (see ToolWireCache); never mutated. */
const TOOLS = new ToolWireCache((tool: Tool<unknown>): Block => ({
  toolSpec: { name: tool.name, description: tool.description, inputSchema: { json: toolJsonSchema(tool) } },
}));

/** Talks to Amazon Bedrock's Converse API, signed with AWS credentials or sent with a Bedrock API key. */
export class BedrockAdapter extends HttpModelAdapter<ConverseReadContext> {
  readonly name: string;
  readonly region: string;
  /**
   * `PromptRequest.output` is honoured through a forced answer tool (Converse's toolChoice), whose
   * input comes back as the answer text.
   */
  readonly supportsStructuredOutput = true;
  protected readonly readContext: ConverseReadContext = { provider: BEDROCK_PROVIDER };
  private readonly additionalFields: Record<string, unknown> | undefined;
  private readonly thinking: boolean;
  private readonly base: string;
  private readonly auth: BedrockAuth;
  private readonly turns = new WireCache((message: Message) => messageTurn(message, CONVERSE_BLOCKS));

  constructor(private readonly options: BedrockAdapterOptions) {
    if (!options.model) throw new ConfigurationError("BedrockAdapter needs a model id (option `model`).");
    super(BEDROCK_PROVIDER, options, { stream: readConverseStream, json: readConverseJson });
    checkThinking(options.thinking, options.maxTokens ?? 4096, options.interleavedThinking === true, "BedrockAdapter");
    const fields: Record<string, unknown> = { ...options.additionalModelRequestFields };
    if (options.thinking) fields["thinking"] = options.thinking;
    if (options.interleavedThinking) {
      const beta = Array.isArray(fields["anthropic_beta"]) ? (fields["anthropic_beta"] as unknown[]) : [];
      fields["anthropic_beta"] = [...beta, INTERLEAVED_THINKING_BETA];
    }
    this.additionalFields = Object.keys(fields).length ? fields : undefined;
    this.thinking = options.thinking?.type === "enabled";
    this.name = `bedrock:${options.model}`;
    this.region = awsRegion(options.region);
    this.base = trimBaseURL(options.baseURL ?? `https://bedrock-runtime.${this.region}.amazonaws.com`);
    this.auth = bedrockAuth(options);
  }

  /** The Converse request body for `request`. */
  buildBody(request: PromptRequest): string {
    const turns = alternatingTurns(
      request.messages.map((m) => this.turns.get(m)),
      CONVERSE_BLOCKS,
    );
    const body: Record<string, unknown> = { messages: numberDocuments(turns) };
    const system = this.systemFor(request);
    if (system) body["system"] = [{ text: system }];
    body["inferenceConfig"] = { maxTokens: this.options.maxTokens ?? 4096 };
    if (this.additionalFields) body["additionalModelRequestFields"] = this.fieldsFor(turns);
    const tools = (request.tools ?? []).map((t) => TOOLS.get(t));
    const toolConfig: Record<string, unknown> = { tools };
    if (request.output) {
      const tool = outputTool(request.output);
      tools.push({ toolSpec: { name: tool.name, description: tool.description, inputSchema: { json: tool.schema } } });
      // Claude refuses a forced tool choice with manual thinking: then the tool is only offered
      // (its description asks for the answer through it) and Glove's validation catches a miss.
      if (!this.thinking) toolConfig["toolChoice"] = { tool: { name: tool.name } };
    }
    if (tools.length) body["toolConfig"] = toolConfig;
    return JSON.stringify(body);
  }

  /** The additional fields, without `thinking` when the request continues a tool loop begun without it. */
  private fieldsFor(turns: Array<{ role: string; content: Block[] }>): Record<string, unknown> {
    const fields = this.additionalFields!;
    if (!("thinking" in fields) || !loopStartedWithoutThinking(turns, CONVERSE_TURN_KINDS)) return fields;
    const { thinking: _off, ...rest } = fields;
    void _off;
    return rest;
  }

  protected override contextFor(request: PromptRequest): ConverseReadContext {
    return request.output ? { ...this.readContext, outputTool: request.output.name } : this.readContext;
  }

  /** Converse or ConverseStream for this model, signed with SigV4 or carrying the bearer token. */
  protected async target(body: string): Promise<RequestTarget> {
    const url = `${this.base}/model/${encodeURIComponent(this.model)}/${this.stream ? "converse-stream" : "converse"}`;
    const baseHeaders: Record<string, string> = {
      "content-type": "application/json",
      accept: this.stream ? "application/vnd.amazon.eventstream" : "application/json",
      ...this.options.headers,
    };
    const { credentials, bearerToken } = this.auth;
    const headers = credentials
      ? await signV4({
          method: "POST",
          url,
          headers: baseHeaders,
          body,
          region: this.region,
          service: "bedrock",
          credentials: await resolveCredentials(credentials),
        })
      : { ...baseHeaders, authorization: `Bearer ${bearerToken}` };
    return { url, headers };
  }
}
