import { ConfigurationError, type ModelAdapter } from "glove-core";
import { createRelayModel } from "glove-core/models/relay";
import { LocalSession } from "../local/local-session.js";
import { ServerSession } from "../server/server-session.js";
import type { GloveStore } from "../state/glove-store.js";
import type { GloveSession } from "../types/session.js";
import type { GloveClientConfig } from "./glove-client.js";

/** The merged config, read through a getter so late changes (headers, callbacks) are seen. */
export type ConfigSource = () => GloveClientConfig;

/** Throws the configuration mistakes a developer should see at once (during render). */
export function checkConfig(config: GloveClientConfig): void {
  if (config.server !== undefined) {
    if (typeof config.server !== "string") throw new ConfigurationError('useGlove({ server }) takes the glove-server\'s URL, e.g. "/api/glove".');
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
}

/** The model a local session uses: an adapter, a factory's, or a relay client for `endpoint`. */
export function modelFor(config: GloveClientConfig, source: ConfigSource): ModelAdapter {
  if (config.model) return config.model;
  if (config.endpoint) {
    return createRelayModel({
      endpoint: config.endpoint,
      headers: async () => {
        const headers = source().headers;
        return (typeof headers === "function" ? await headers() : headers) ?? {};
      },
      ...(config.fetch ? { fetch: config.fetch } : {}),
    });
  }
  if (config.createModel) return config.createModel();
  throw new ConfigurationError("No model: give useGlove an `endpoint` or a `model`.");
}

/** Builds the session for the config's mode on the given store. Called from an effect. */
export function createSession(source: ConfigSource, store: GloveStore): GloveSession {
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
        headers: async () => {
          const headers = source().headers;
          return (typeof headers === "function" ? await headers() : headers) ?? {};
        },
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
  return new LocalSession(
    {
      model: modelFor(config, source),
      systemPrompt: config.systemPrompt ?? "",
      tools: config.tools ?? [],
      ...(config.compaction ? { compaction: config.compaction } : {}),
      ...(config.subscribers ? { subscribers: config.subscribers } : {}),
      ...(config.store ? { store: config.store } : {}),
      ...(config.createStore ? { createStore: (id: string) => (source().createStore ?? config.createStore!)(id) } : {}),
      ...(config.sessionId ? { sessionId: config.sessionId } : {}),
      ...(config.persistSession ? { persistSession: config.persistSession } : {}),
      ...(config.gloveConfig ? { gloveConfig: config.gloveConfig } : {}),
      ...(config.configure ? { configure: config.configure } : {}),
    },
    store,
  );
}
