import { ConfigurationError } from "glove-core/errors";
import { runnableTools } from "../tools/runnable-tools.js";
import { ServerSession } from "../server/server-session.js";
import type * as LocalModeModule from "../local/local-mode.js";
import type { GloveStore } from "../state/glove-store.js";
import type { GloveSession } from "../types/session.js";
import type { GloveSessionConfig } from "./session-config.js";

/** The config, read through a getter so late changes (headers, callbacks) are seen. */
export type ConfigSource = () => GloveSessionConfig;

/** Throws the configuration mistakes a developer should see at once (in React: during render). */
export function checkSessionConfig(config: GloveSessionConfig): void {
  if (config.server !== undefined) {
    if (typeof config.server !== "string")
      throw new ConfigurationError(
        '`server` takes the glove-server\'s URL, e.g. "/api/glove" (useGlove({ server }) or new GloveSessionStore({ server })).',
      );
    return;
  }
  if (!config.model && !config.endpoint && !config.createModel) {
    throw new ConfigurationError(
      "A Glove session needs a way to reach a model: `endpoint` (a model relay route), `model` (an adapter), `createModel`, or `server` (a glove-server) — in useGlove's config, a GloveClient, or a GloveSessionStore's config.",
    );
  }
  if (typeof config.systemPrompt !== "string") {
    throw new ConfigurationError(
      "Local mode needs a `systemPrompt` (in useGlove's config, a GloveClient, or a GloveSessionStore's config).",
    );
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
 * Builds the session for the config's mode on the given store. A local session comes later (its
 * code loads on demand), so server-mode pages never carry the loop. Touches no browser API until
 * the session's `start()`, so it may run anywhere; in React, call it from an effect.
 */
export function createGloveSession(
  config: GloveSessionConfig | ConfigSource,
  store: GloveStore,
): GloveSession | Promise<GloveSession> {
  const source: ConfigSource = typeof config === "function" ? config : () => config;
  const current = source();
  if (current.server !== undefined) {
    const snapshot = current.initialSnapshot;
    const conversationId = current.conversationId ?? snapshot?.id;
    const usable =
      snapshot && (!current.conversationId || snapshot.id === current.conversationId) ? snapshot : undefined;
    // Each session starts from its own beginning (a remount must not keep an earlier conversation).
    store.dispatch({ type: "reset", conversationId: conversationId ?? null, ...(usable ? { snapshot: usable } : {}) });
    return new ServerSession(
      {
        server: current.server,
        headers: currentHeaders(source),
        ...(current.credentials ? { credentials: current.credentials } : {}),
        fetch: (input, init) => (source().fetch ?? globalThis.fetch)(input, init),
        ...(current.agent ? { agent: current.agent } : {}),
        ...(conversationId ? { conversationId } : {}),
        ...(usable ? { initialSnapshot: usable } : {}),
        onConversationChange: (id) => source().onConversationChange?.(id),
        ...(current.backoff ? { backoff: current.backoff } : {}),
        ...(current.offlineAfter !== undefined ? { offlineAfter: current.offlineAfter } : {}),
        ...(current.staleAfterMs !== undefined ? { staleAfterMs: current.staleAfterMs } : {}),
      },
      store,
    );
  }
  return loadLocalMode().then((local) => local.createLocalSession(source, store));
}
