/**
 * The client end of Glove's model relay: a ModelAdapter that POSTs each prompt
 * to a relay route (which holds the provider key) and replays the answer's
 * events as they stream back. Runs on fetch and the shared SSE parser only, so
 * it works in browsers; see protocol.ts for the wire format.
 */
import { ConfigurationError, ProviderError, throwIfAborted, toAbortError } from "../../errors.js";
import type { ModelAdapter, ModelPromptResult, NotifySubscribersFunction, PromptRequest } from "../../types/index.js";
import { fromFetchResponse } from "../shared/http/fetch.js";
import { relayHttpError } from "./http-error.js";
import type { RelayModelOptions } from "./options.js";
import { RELAY_PROVIDER, type RelayRequestBody } from "./protocol.js";
import { relayRequestBody } from "./request-body.js";
import { readRelayStream } from "./stream-reader.js";

export class RelayModel implements ModelAdapter {
  readonly name: string;
  readonly endpoint: string;
  /**
   * False unless `nativeStructuredOutput` says otherwise: the client cannot know which adapter
   * answers behind the relay (nor whether the relay is new enough to pass `output` on), and an
   * instruction in the prompt works with all of them.
   */
  readonly supportsStructuredOutput: boolean;
  private systemPrompt: string;

  constructor(private readonly options: RelayModelOptions) {
    if (!options || typeof options.endpoint !== "string" || options.endpoint.trim() === "") {
      throw new ConfigurationError(
        'createRelayModel() needs { endpoint }: the URL of your relay route, e.g. "/api/model".',
      );
    }
    const max = options.maxTokens;
    if (max !== undefined && !(Number.isInteger(max) && max > 0)) {
      throw new ConfigurationError(`createRelayModel(): maxTokens must be a positive integer, got ${String(max)}.`);
    }
    this.endpoint = options.endpoint;
    this.name = options.name ?? (options.model ? `${RELAY_PROVIDER}:${options.model}` : RELAY_PROVIDER);
    this.systemPrompt = options.systemPrompt ?? "";
    this.supportsStructuredOutput = options.nativeStructuredOutput === true;
  }

  setSystemPrompt(systemPrompt: string): void {
    this.systemPrompt = systemPrompt;
  }

  /** The body this adapter POSTs for `request` (exposed for tests). */
  buildBody(request: PromptRequest): RelayRequestBody {
    return relayRequestBody(request, {
      model: this.options.model,
      maxTokens: this.options.maxTokens,
      systemPrompt: this.systemPrompt,
    });
  }

  async prompt(
    request: PromptRequest,
    notify: NotifySubscribersFunction,
    signal?: AbortSignal,
  ): Promise<ModelPromptResult> {
    throwIfAborted(signal);
    const body = JSON.stringify(this.buildBody(request));
    const extra = typeof this.options.headers === "function" ? await this.options.headers() : this.options.headers;
    throwIfAborted(signal);
    // Looked up per call, and called unbound: browsers reject fetch called on another object.
    const doFetch = this.options.fetch ?? globalThis.fetch;
    let response: Response;
    try {
      response = await doFetch(this.endpoint, {
        method: "POST",
        headers: { ...extra, "content-type": "application/json", accept: "text/event-stream" },
        body,
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw toAbortError(signal.reason);
      const detail = error instanceof Error ? error.message : String(error);
      throw new ProviderError({
        provider: RELAY_PROVIDER,
        status: 0,
        retryable: true,
        providerMessage: `could not reach the relay at ${this.endpoint}: ${detail}`,
        cause: error,
      });
    }
    if (!response.ok) throw await relayHttpError(response);
    const type = response.headers.get("content-type") ?? "";
    if (!/^text\/event-stream\b/i.test(type)) {
      await response.body?.cancel().catch(() => undefined);
      throw new ProviderError({
        provider: RELAY_PROVIDER,
        status: response.status,
        retryable: false,
        providerMessage: `${this.endpoint} answered with ${type || "no content-type"}, not an event stream: is it a model relay route?`,
      });
    }
    return readRelayStream(fromFetchResponse(response), notify, signal);
  }
}

/**
 * A ModelAdapter backed by a Glove model relay (glove-server's
 * `createModelRelay`): the agent loop runs here, the API key stays on the server.
 */
export function createRelayModel(options: RelayModelOptions): RelayModel {
  return new RelayModel(options);
}
