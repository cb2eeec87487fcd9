/**
 * Local mode's entry, loaded by `createGloveSession` on demand (dynamic import): it reaches glove-core's
 * agent loop, the model relay client and zod's JSON Schema conversion, which a server-mode page
 * never needs and so never downloads.
 */
import type { ModelAdapter } from "glove-core";
import { ConfigurationError } from "glove-core/errors";
import { createRelayModel } from "glove-core/models/relay";
import { currentHeaders, type ConfigSource } from "../session/create-session.js";
import type { GloveSessionConfig } from "../session/session-config.js";
import type { GloveStore } from "../state/glove-store.js";
import { runnableTools } from "../tools/runnable-tools.js";
import { LocalSession } from "./local-session.js";

/** The model a local session uses: an adapter, a factory's, or a relay client for `endpoint`. */
export function modelFor(config: GloveSessionConfig, source: ConfigSource): ModelAdapter {
  if (config.model) return config.model;
  if (config.endpoint) {
    return createRelayModel({
      endpoint: config.endpoint,
      headers: currentHeaders(source),
      ...(config.fetch ? { fetch: config.fetch } : {}),
    });
  }
  if (config.createModel) return config.createModel();
  throw new ConfigurationError("No model: give useGlove an `endpoint` or a `model`.");
}

/** Builds the local session for the config on the given store. */
export function createLocalSession(source: ConfigSource, store: GloveStore): LocalSession {
  const config = source();
  return new LocalSession(
    {
      model: modelFor(config, source),
      systemPrompt: config.systemPrompt ?? "",
      tools: runnableTools(config.tools ?? []),
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
