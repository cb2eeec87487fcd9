import type { AgentSource } from "../agents/agent-source.js";
import type { ConversationHosting } from "../conversations/conversation-handle.js";
import type { ResolvedServerOptions } from "../options.js";
import type { ServerStorage } from "../storage/types.js";

/** What the server hands a scale mode when it starts: its storage, agents and resolved options. */
export interface ScaleContext {
  storage: ServerStorage;
  agents: AgentSource;
  options: ResolvedServerOptions;
}

/** A started scale mode: the conversations this instance serves, and how to stop. */
export interface ScaleRuntime {
  host: ConversationHosting;
  /** Stops taking turns (running ones are handed over to other instances) and closes connections. */
  close(): Promise<void>;
}

/**
 * How several server instances share conversations (`createGloveServer({ scale })`), e.g.
 * `redisScale()` from "glove-server/redis". Without it the server runs everything in its process.
 */
export interface ServerScale {
  readonly kind: string;
  start(context: ScaleContext): ScaleRuntime;
}
