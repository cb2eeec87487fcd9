/**
 * createModelRelay: the server end of Glove's model relay. Browsers running the
 * agent loop (glove-core/models/relay's createRelayModel) reach a model through
 * it; the API key stays here. Unlike a plain proxy it is closed by default:
 * every request is authenticated, limited to allowed models, capped in output
 * tokens and body size, and rate limited per principal.
 */
import type { PromptRequest } from "glove-core";
import { idleTimeoutFor } from "../http/connection-limits.js";
import { listenNode, type Listening, type ListenOptions } from "../http/node-listen.js";
import { readJsonObject } from "../http/read-json.js";
import { errorResponse } from "../http/responses.js";
import { withSecurityHeaders } from "../http/security-headers.js";
import { ConcurrencyLimiter } from "../limits/concurrency.js";
import { checkHost } from "../security/host-check.js";
import { RateLimiter } from "../limits/rate-limiter.js";
import { methodNotAllowed, modelNotAllowed, rateLimited, RelayHttpError, unauthorized } from "./relay-errors.js";
import { resolveRelayOptions, type ModelRelayOptions, type ResolvedRelayOptions } from "./relay-options.js";
import { parseRelayBody } from "./request-schema.js";
import { streamAnswer } from "./stream-answer.js";
import { relayTools, upstreamFactory, type UpstreamFactory } from "./upstream.js";

/** A model relay: mount its `fetch` as a route or `listen` on Node; the API key never leaves it. */
export interface ModelRelay {
  /** Web-standard handler: mount it as a route (e.g. a Next.js `POST` export) or serve it with `listen`. */
  fetch(request: Request): Promise<Response>;
  /** Serves the relay on node:http (default 127.0.0.1 and a free port). */
  listen(options?: ListenOptions): Promise<Listening>;
}

/** A model relay; throws ConfigurationError now for missing authenticate, models or provider credentials. */
export function createModelRelay(options: ModelRelayOptions): ModelRelay {
  const resolved = resolveRelayOptions(options);
  const upstream = upstreamFactory(options, resolved.defaultModel);
  const rate = new RateLimiter(resolved.limits.requestsPerMinute);
  const concurrency = new ConcurrencyLimiter(resolved.limits.concurrentPerPrincipal);
  const context: RelayContext = { resolved, upstream, rate, concurrency };

  const fetch = async (request: Request): Promise<Response> => {
    try {
      return withSecurityHeaders(await handle(context, request));
    } catch (error) {
      const response = errorResponse(error, resolved.log);
      if (error instanceof RelayHttpError)
        for (const [name, value] of Object.entries(error.headers)) response.headers.set(name, value);
      return withSecurityHeaders(response);
    }
  };
  // Streams stay open between keep-alive comments; without them (keepAliveMs 0) the default idle timeout applies.
  const listen = (listenOptions: ListenOptions = {}) =>
    listenNode(
      fetch,
      resolved.keepAliveMs > 0
        ? { ...listenOptions, socketIdleTimeoutMs: idleTimeoutFor(resolved.keepAliveMs, listenOptions) }
        : listenOptions,
    );
  return { fetch, listen };
}

interface RelayContext {
  resolved: ResolvedRelayOptions;
  upstream: UpstreamFactory;
  rate: RateLimiter;
  concurrency: ConcurrencyLimiter;
}

async function handle({ resolved, upstream, rate, concurrency }: RelayContext, request: Request): Promise<Response> {
  // First, as on the server: a request for a host the relay does not answer to (DNS rebinding) gets nothing else.
  checkHost(new URL(request.url), resolved.hostAllowed);
  if (request.method !== "POST") throw methodNotAllowed();
  const principal = await resolved.authenticate(request);
  if (principal === null || principal === undefined) throw unauthorized();
  if (typeof principal.id !== "string" || principal.id === "") {
    // A bug in the app's authenticate(): answered as a logged 500, not as an anonymous pass.
    throw new Error("createModelRelay: authenticate() returned a principal without a non-empty string id.");
  }
  // Counted before the body is read, so refused callers cost no parsing.
  const decision = rate.take(principal.id);
  if (!decision.allowed) {
    throw rateLimited(
      decision.retryAfterSeconds,
      `Too many model requests: at most ${resolved.limits.requestsPerMinute} a minute. Retry in ${decision.retryAfterSeconds} s.`,
    );
  }
  const body = parseRelayBody(await readJsonObject(request, resolved.limits.bodyBytes), resolved.limits);
  const model = body.model ?? resolved.defaultModel;
  if (!resolved.models.has(model)) throw modelNotAllowed(model, resolved.models);

  const release = concurrency.acquire(principal.id);
  if (!release) {
    throw rateLimited(
      1,
      `Too many model streams open at once: at most ${resolved.limits.concurrentPerPrincipal}. Wait for one to finish.`,
    );
  }
  try {
    // Clamped, not refused: a browser cannot know the server's cap, and a shorter answer is still an answer.
    const maxTokens = Math.min(body.maxTokens ?? resolved.limits.maxTokens, resolved.limits.maxTokens);
    const adapter = await upstream(model, maxTokens);
    const prompt: PromptRequest = { messages: body.messages };
    if (body.systemPrompt !== undefined) prompt.systemPrompt = body.systemPrompt;
    if (body.tools?.length) prompt.tools = relayTools(body.tools);
    // The upstream adapter uses its native JSON-schema mode when it has one; Glove (in the browser) validates.
    if (body.output) prompt.output = body.output;
    return streamAnswer({
      adapter,
      prompt,
      signal: request.signal,
      keepAliveMs: resolved.keepAliveMs,
      log: resolved.log,
      redact: resolved.redact,
      done: release,
    });
  } catch (error) {
    release();
    throw error;
  }
}
