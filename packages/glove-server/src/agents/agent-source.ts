import { ConfigurationError, Runtime, type IGloveBuilder, type IGloveRunnable, type StoreAdapter } from "glove-core";
import type { Principal } from "../security/authenticate.js";

/** What an agent factory is given for each conversation it builds a Glove for. */
export interface AgentContext {
  conversationId: string;
  agent: string;
  /** The principal whose request opened the conversation (its owner). */
  principal: Principal;
  /** The conversation's store: build the Glove on it (the server does when you return an unbuilt one). */
  store: StoreAdapter;
}

/** Builds the Glove of one conversation; it may return it built on `store` or unbuilt. */
export type AgentFactory = (
  context: AgentContext,
) => IGloveRunnable | IGloveBuilder | Promise<IGloveRunnable | IGloveBuilder>;

/** `agents` of createGloveServer: named factories, or a glove-core Runtime whose agents are served. */
export type AgentsOption = Record<string, AgentFactory> | Runtime;

/** The agents a server hosts, whatever form they were given in. */
export interface AgentSource {
  readonly names: readonly string[];
  open(context: AgentContext): Promise<IGloveRunnable>;
  /** Forget the conversation's Glove (eviction); the next open rebuilds it from its store. */
  release(agent: string, conversationId: string): void;
}

export function agentSource(agents: AgentsOption | undefined): AgentSource {
  if (agents instanceof Runtime) {
    const runtime = agents;
    if (runtime.agentNames().length === 0) {
      throw new ConfigurationError(
        "createGloveServer: the Runtime passed as agents has no registered agent. Register one first.",
      );
    }
    return {
      get names() {
        return runtime.agentNames();
      },
      open: (context) => runtime.conversation(context.agent, context.conversationId, { store: context.store }),
      release: (agent, conversationId) => void runtime.closeConversation(agent, conversationId),
    };
  }
  if (!agents || typeof agents !== "object" || Object.keys(agents).length === 0) {
    throw new ConfigurationError(
      "createGloveServer needs agents: { name: ({ conversationId, principal, store }) => new Glove({...}) } or a glove-core Runtime.",
    );
  }
  for (const [name, factory] of Object.entries(agents)) {
    if (typeof factory !== "function") {
      throw new ConfigurationError(
        `createGloveServer: agents.${name} must be a function that returns a Glove, got ${typeof factory}.`,
      );
    }
  }
  const factories = agents;
  return {
    names: Object.keys(factories),
    async open(context) {
      const made = await factories[context.agent]!(context);
      return onStore(made, context.store, context.agent);
    },
    release: () => undefined,
  };
}

/** The Glove built on the conversation's store: as returned when it already is, else (re)built on it. */
function onStore(glove: IGloveRunnable | IGloveBuilder, store: StoreAdapter, agent: string): IGloveRunnable {
  if (!glove || typeof glove !== "object" || typeof (glove as IGloveBuilder).addSubscriber !== "function") {
    throw new ConfigurationError(
      `The factory of agent "${agent}" must return a Glove (got ${glove === null ? "null" : typeof glove}).`,
    );
  }
  let current: StoreAdapter | undefined;
  try {
    current = "builtStore" in glove ? glove.builtStore : (glove as IGloveRunnable).store;
  } catch {
    current = undefined;
  }
  if (current === store) return glove as IGloveRunnable;
  if (current !== undefined && typeof (glove as IGloveRunnable).rebuild === "function")
    return (glove as IGloveRunnable).rebuild(store);
  if (typeof (glove as IGloveBuilder).build === "function") return (glove as IGloveBuilder).build(store);
  throw new ConfigurationError(
    `The factory of agent "${agent}" returned an object that cannot be built on the conversation's store.`,
  );
}
