import { ConfigurationError } from "glove-core";
import { runnableTools } from "../tools/define-tool-view.js";
import { ServerSession } from "../server/server-session.js";
import type * as LocalModeModule from "../local/local-mode.js";
import type { GloveStore } from "../state/glove-store.js";
import type { GloveSession } from "../types/session.js";
import type { GloveClientConfig } from "./glove-client.js";

/** The merged config, read through a getter so late changes (headers, callbacks) are seen. */
export type ConfigSource = () => GloveClientConfig;

/** Throws the configuration mistakes a developer should see at once (during render). */
export function checkConfig(config: GloveClientConfig): void {
  if (config.server !== undefined) {
    if (typeof config.server !== "string")
      throw new ConfigurationError('useGlove({ server }) takes the glove-server\'s URL, e.g. "/api/glove".');
    return;
  }
  if (!config.model && !config.endpoint && !config.createModel) {
    throw new ConfigurationError(
      "useGlove needs a way to reach a model: `endpoint` (a model relay route), `model` (an adapter), or `server` (a glove-server) — in its config or in a GloveClient.",
    );
  }
  if (typeof config.systemPrompt !== "string") {
    throw new ConfigurationError("useGlove in local mode needs a `systemPrompt` (in its config or in a GloveClient).");
  }
  runnableTools(config.tools ?? []);
}

/** The latest `headers` option, resolved per request (a function is called each time). */
export function currentHeaders(source: ConfigSource): () => Promise<Record<string, string>> {
  return async () => {
    const headers = source().headers;
    return (typeof headers === "function" ? await headers() : headers) ?? {};
  };
}

type LocalMode = typeof LocalModeModule;
let localMode: Promise<LocalMode> | undefined;

/** Local mode's code (the Glove loop in the tab), fetched once, when a local session is first asked for. */
export function loadLocalMode(): Promise<LocalMode> {
  return (localMode ??= import("../local/local-mode.js"));
}

/**
 * Builds the session for the config's mode on the given store. Called from an effect. A local
 * session comes later (its code loads on demand), so server-mode pages never carry the loop.
 */
export function createSession(source: ConfigSource, store: GloveStore): GloveSession | Promise<GloveSession> {
  const config = source();
  if (config.server !== undefined) {
    const snapshot = config.initialSnapshot;
    const conversationId = config.conversationId ?? snapshot?.id;
    const usable = snapshot && (!config.conversationId || snapshot.id === config.conversationId) ? snapshot : undefined;
    // Each session starts from its own beginning (a remount must not keep an earlier conversation).
    store.dispatch({ type: "reset", conversationId: conversationId ?? null, ...(usable ? { snapshot: usable } : {}) });
    return new ServerSession(
      {
        server: config.server,
        headers: currentHeaders(source),
        ...(config.credentials ? { credentials: config.credentials } : {}),
        fetch: (input, init) => (source().fetch ?? globalThis.fetch)(input, init),
        ...(config.agent ? { agent: config.agent } : {}),
        ...(conversationId ? { conversationId } : {}),
        ...(usable ? { initialSnapshot: usable } : {}),
        onConversationChange: (id) => source().onConversationChange?.(id),
        ...(config.backoff ? { backoff: config.backoff } : {}),
        ...(config.offlineAfter !== undefined ? { offlineAfter: config.offlineAfter } : {}),
        ...(config.staleAfterMs !== undefined ? { staleAfterMs: config.staleAfterMs } : {}),
      },
      store,
    );
  }
  return loadLocalMode().then((local) => local.createLocalSession(source, store));
}
