import { ConfigurationError } from "glove-core";
import { withVariants } from "./agents/agent-override.js";
import { agentSource } from "./agents/agent-source.js";
import { InboxPoller } from "./conversations/inbox-poller.js";
import { ConversationHost } from "./conversations/conversation-host.js";
import { HttpError, notFound } from "./errors.js";
import { extensionTurns } from "./extensions/extension-turns.js";
import { extensionsByPath, extensionVariants } from "./extensions/server-extension.js";
import { idleTimeoutFor } from "./http/connection-limits.js";
import { listenNode, type ListenOptions, type Listening } from "./http/node-listen.js";
import { takeParsedUrl } from "./http/node-request.js";
import { errorResponse } from "./http/responses.js";
import { withSecurityHeaders } from "./http/security-headers.js";
import { PrincipalQuotas } from "./limits/principal-quotas.js";
import { resolveOptions, type GloveServerOptions } from "./options.js";
import { corsHeaders, preflight } from "./security/cors.js";
import { requirePrincipal } from "./security/authenticate.js";
import { checkHost } from "./security/host-check.js";
import { checkOrigin } from "./security/origin-check.js";
import { pathSegments, route } from "./routes/router.js";
import type { ServerParts } from "./routes/route-context.js";
import { resolveStorage } from "./storage/resolve-storage.js";
import { serverRetention } from "./retention/server-retention.js";
import type { OwnerPurgeReport } from "./retention/owner-purge.js";
import type { RetentionReport } from "./retention/retention-pass.js";

/** A running Glove server: mount its `fetch` in any web framework or `listen` on Node. */
export interface GloveServer {
  /** Web-standard handler: mount it in Next.js route handlers, Hono, Bun or Deno. */
  fetch(request: Request): Promise<Response>;
  /**
   * Serves on node:http (127.0.0.1 by default), with bounded connections (ListenOptions); the idle
   * timeout defaults to at least four event-stream heartbeats.
   */
  listen(options?: ListenOptions): Promise<Listening>;
  /** Ends running turns as interrupted (history stays valid), closes streams and stores. */
  close(): Promise<void>;
  /** Conversations currently held in memory (the rest live only in the store). */
  readonly liveConversations: number;
  /**
   * How many of those hibernate: nobody read them for `events.replayWindowMs`, so only a small
   * record stays and the next request rebuilds their Glove from the store.
   */
  readonly hibernatedConversations: number;
  /**
   * One retention run now (bounded like the background ones); needs `retention` options. Resolves
   * with what it deleted (`ran: false` when another instance was running it).
   */
  runRetention(): Promise<RetentionReport>;
  /**
   * Deletes everything `principalId` owns: each conversation leaves memory (a running turn ends as
   * interrupted) and its rows leave every table (see the README's Retention section for exceptions).
   */
  purgeOwner(principalId: string): Promise<OwnerPurgeReport>;
}

/**
 * Glove's daemon mode: hosts agents over HTTP + Server-Sent Events. Every route is authenticated;
 * conversations belong to their creator; events can be resumed with Last-Event-ID.
 */
export function createGloveServer(options: GloveServerOptions): GloveServer {
  if (!options || typeof options.authenticate !== "function") {
    throw new ConfigurationError(
      "createGloveServer needs authenticate: (request) => ({ id }) | null. There is no default: an agent server open to anyone spends your model budget.",
    );
  }
  const resolved = resolveOptions(options);
  const extensions = extensionsByPath(options.extensions);
  const baseAgents = agentSource(options.agents);
  const variants = extensionVariants(extensions, baseAgents.names);
  const variantNames = new Set(variants.keys());
  const agents = withVariants(baseAgents, variants);
  const storage = resolveStorage(options);
  const storeFor = async (id: string) => storage.store(id);
  // The scale mode brings its own host; the default path stays the in-process one.
  const scaled = options.scale?.start({ storage, agents, options: resolved });
  const parts: ServerParts = {
    catalog: storage.catalog,
    purge: async (id) => storage.delete?.(id),
    agents,
    options: resolved,
    quotas: new PrincipalQuotas(resolved),
    host:
      scaled?.host ??
      new ConversationHost({
        catalog: storage.catalog,
        agents,
        storeFor,
        options: resolved,
        traces: storage.inspect?.traces,
        inboxPoller: InboxPoller.for(storage, resolved),
      }),
  };
  const retention = serverRetention(options.retention, storage, () => parts.host, resolved.log);
  const listeners: Listening[] = [];
  let closing: Promise<void> | undefined;

  async function handle(request: Request): Promise<Response> {
    const url = takeParsedUrl(request) ?? new URL(request.url);
    // First: a request for a host this server does not answer to (DNS rebinding) gets nothing else.
    checkHost(url, resolved.hostAllowed);
    const segments = pathSegments(url.pathname, resolved.basePath);
    if (!segments) throw notFound(`This server serves ${resolved.basePath || "/"} only.`);
    if (request.method === "OPTIONS") return preflight(request, resolved.allowedOrigins);
    if (closing) throw new HttpError(503, "GLOVE_SHUTTING_DOWN", "The server is shutting down; retry in a moment.");
    checkOrigin(request, url, resolved.allowedOrigins);
    const principal = await requirePrincipal(options.authenticate, request);
    const extension = segments.length > 0 ? extensions.get(segments[0]!) : undefined;
    if (extension) {
      const mountPath = `${resolved.basePath}/${extension.path}`;
      return extension.handle({
        request,
        url,
        principal,
        segments: segments.slice(1),
        mountPath,
        storage,
        host: parts.host,
        turns: extensionTurns({ ...parts, request, url, principal, params: {} }, variantNames),
      });
    }
    const { handler, params } = route(segments, request.method);
    return handler({ ...parts, request, url, principal, params });
  }

  return {
    async fetch(request) {
      let response: Response;
      try {
        response = await handle(request);
      } catch (error) {
        response = errorResponse(error, resolved.log);
      }
      for (const [key, value] of Object.entries(corsHeaders(request, resolved.allowedOrigins)))
        response.headers.set(key, value);
      return withSecurityHeaders(response);
    },
    async listen(listenOptions) {
      const socketIdleTimeoutMs = idleTimeoutFor(resolved.heartbeatMs, listenOptions);
      const listening = await listenNode((request) => this.fetch(request), { ...listenOptions, socketIdleTimeoutMs });
      listeners.push(listening);
      return listening;
    },
    close() {
      closing ??= (async () => {
        await retention.stop();
        await parts.host.closeAll();
        await scaled?.close();
        await Promise.all(listeners.map((l) => l.close()));
        await storage.catalog.close?.();
        await storage.close?.();
      })();
      return closing;
    },
    get liveConversations() {
      return parts.host.size;
    },
    get hibernatedConversations() {
      return parts.host.hibernated ?? 0;
    },
    runRetention: () => retention.run(),
    purgeOwner: (principalId) => retention.purgeOwner(principalId),
  };
}
