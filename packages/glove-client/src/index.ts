/**
 * glove-client — Glove in any browser UI, no framework: a conversation's state as an external
 * store (`subscribe` / `getSnapshot`) and its actions, attached to a glove-server (server mode)
 * or running the Glove in the tab (local mode, loaded on demand). Browser-safe: no `node:` import;
 * browser globals are only touched once a session starts.
 */
export type * from "./types/index.js";

export { GloveSessionStore } from "./session/glove-session-store.js";
export type { GloveSessionStoreOptions } from "./session/glove-session-store.js";
export { createGloveSession, checkSessionConfig } from "./session/create-session.js";
export type { ConfigSource } from "./session/create-session.js";
export type { GloveSessionConfig } from "./session/session-config.js";

export { GloveStore } from "./state/glove-store.js";
export type { GloveStoreOptions } from "./state/glove-store.js";
export { FrameBatcher, nextFrame } from "./state/frame-batcher.js";
export type { FrameScheduler } from "./state/frame-batcher.js";
export { reduce } from "./state/reducer.js";
export { initialState } from "./state/initial-state.js";
export { buildTimeline } from "./state/timeline.js";
export { visibleSlots, strategyOf } from "./state/visibility.js";
export { transcriptLayout } from "./state/layout.js";
export type { RenderStrategy, LayoutItem } from "./state/layout.js";

export { LocalSession } from "./local/local-session.js";
export type { LocalSessionOptions, PersistSessionOptions } from "./local/local-options.js";
export { PersistedStore } from "./local/persisted-store.js";
export type { KeyValueStorage } from "./local/persisted-store.js";

export { ServerSession } from "./server/server-session.js";
export type { ServerSessionOptions } from "./server/server-session.js";
export type { ServerConnectionOptions, HeadersOption } from "./server/server-api.js";
export type { BackoffOptions } from "./server/backoff.js";
export { backoffDelay } from "./server/backoff.js";
export { SseParser } from "./server/sse-reader.js";
export type { SseFrame, SseHandlers } from "./server/sse-reader.js";

export { checkedTool, viewOf } from "./tools/checked-tool.js";
export type { CheckedToolConfig } from "./tools/checked-tool.js";
export type {
  RenderDataOf,
  ResultDataOf,
  ToolReturnFor,
  ToolSchemas,
  TypedToolConfig,
  TypedToolViewConfig,
} from "./types/typed-tool.js";

export { DisplayPropsError, ServerRequestError, toIssues } from "./errors.js";
export { toErrorInfo } from "./util/error-info.js";
