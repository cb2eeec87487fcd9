/**
 * Amazon Bedrock adapter on the Converse / ConverseStream API, signed with
 * SigV4 (Web Crypto) or sent with a Bedrock API key (bearer token). The stream
 * is AWS's binary event stream, decoded by ../shared/aws.ts.
 */
import { ConfigurationError } from "../../errors.js";
import type { Message, PromptRequest, Tool } from "../../types/index.js";
import { trimBaseURL } from "../shared/adapter-options.js";
import { signV4 } from "../shared/aws.js";
import { awsRegion } from "../shared/env.js";
import { HttpModelAdapter, type ReadContext, type RequestTarget } from "../shared/http-adapter.js";
import { toolJsonSchema } from "../shared/messages.js";
import { alternatingTurns, messageTurn } from "../shared/turns.js";
import { WireCache } from "../shared/wire-cache.js";
import { CONVERSE_BLOCKS, numberDocuments } from "./content-blocks.js";
import { bedrockAuth, resolveCredentials, type BedrockAuth } from "./credentials.js";
import { readConverseJson } from "./json-reader.js";
import type { BedrockAdapterOptions } from "./options.js";
import { readConverseStream } from "./stream-reader.js";
import type { Block } from "./wire-types.js";

/** Talks to Amazon Bedrock's Converse API, signed with AWS credentials or sent with a Bedrock API key. */
export class BedrockAdapter extends HttpModelAdapter<ReadContext> {
  readonly name: string;
  readonly region: string;
  protected readonly readContext: ReadContext = { provider: "bedrock" };
  private readonly base: string;
  private readonly auth: BedrockAuth;
  private readonly turns = new WireCache((message: Message) => messageTurn(message, CONVERSE_BLOCKS));
  private readonly tools = new WireCache(
    (tool: Tool<unknown>): Block => ({
      toolSpec: { name: tool.name, description: tool.description, inputSchema: { json: toolJsonSchema(tool) } },
    }),
  );

  constructor(private readonly options: BedrockAdapterOptions) {
    if (!options.model) throw new ConfigurationError("BedrockAdapter needs a model id (option `model`).");
    super("bedrock", options, { stream: readConverseStream, json: readConverseJson });
    this.name = `bedrock:${options.model}`;
    this.region = awsRegion(options.region);
    this.base = trimBaseURL(options.baseURL ?? `https://bedrock-runtime.${this.region}.amazonaws.com`);
    this.auth = bedrockAuth(options);
  }

  /** The Converse request body for `request`. */
  buildBody(request: PromptRequest): string {
    const turns = alternatingTurns(request.messages.map((m) => this.turns.get(m)), CONVERSE_BLOCKS);
    const body: Record<string, unknown> = { messages: numberDocuments(turns) };
    const system = this.systemFor(request);
    if (system) body["system"] = [{ text: system }];
    body["inferenceConfig"] = { maxTokens: this.options.maxTokens ?? 4096 };
    if (request.tools?.length) body["toolConfig"] = { tools: request.tools.map((t) => this.tools.get(t)) };
    return JSON.stringify(body);
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
