import type { GloveFoldArgs, IGloveBuilder, IGloveRunnable, ModelAdapter } from "glove-core";
import type { AgentContext, AgentFactory, AgentSource } from "./agent-source.js";

/**
 * A variant of an agent: what changes in the app's own agent factory, and nothing else. glove-evals
 * runs experiments with it and Glove Studio forks conversations with it, so an app's factory is
 * never copied. Everything is optional; an empty override runs the factory as it is.
 */
export interface AgentOverride {
  /** The variant's label in results and comparisons. Default "base". */
  name?: string;
  /** Another model: an adapter, or a function making one per conversation (adapters with state stay apart). */
  model?: ModelAdapter | ((context: AgentContext) => ModelAdapter);
  /** Another system prompt, or a change of the factory's. */
  systemPrompt?: string | ((current: string) => string);
  /** Tools folded into the agent, replacing the factory's tools of the same name. */
  tools?: Array<GloveFoldArgs<unknown>>;
  /** Anything else, on the Glove the factory made (unbuilt or built). */
  configure?: (glove: IGloveBuilder | IGloveRunnable, context: AgentContext) => void | Promise<void>;
}

/** Applies an override to the Glove a factory made (unbuilt or built). */
export async function overrideGlove<G extends IGloveBuilder | IGloveRunnable>(
  glove: G,
  override: AgentOverride,
  context: AgentContext,
): Promise<G> {
  if (override.model) glove.setModel(typeof override.model === "function" ? override.model(context) : override.model);
  if (override.systemPrompt !== undefined) {
    glove.setSystemPrompt(
      typeof override.systemPrompt === "function"
        ? override.systemPrompt(glove.getSystemPrompt())
        : override.systemPrompt,
    );
  }
  for (const tool of override.tools ?? []) glove.fold({ ...tool, replace: true });
  await override.configure?.(glove, context);
  return glove;
}

/** The factory with the override applied: the same `(context) => Glove` glove-server serves. */
export function applyOverride(factory: AgentFactory, override: AgentOverride = {}): AgentFactory {
  return async (context) => overrideGlove(await factory(context), override, context);
}

/**
 * An agent served under another name with an override (a Studio fork "on another model"): a
 * conversation whose `agent` is the variant's name runs `agent`'s factory with `override`.
 */
export interface AgentVariant {
  agent: string;
  override: AgentOverride;
}

/**
 * The agent source that also opens variants. Variants are not in `names`: clients cannot create
 * conversations of them (only an extension does, e.g. a Studio fork); they open like any agent.
 */
export function withVariants(source: AgentSource, variants: ReadonlyMap<string, AgentVariant>): AgentSource {
  if (variants.size === 0) return source;
  return {
    get names() {
      return source.names;
    },
    async open(context) {
      const variant = variants.get(context.agent);
      if (!variant) return source.open(context);
      const base = { ...context, agent: variant.agent };
      return overrideGlove(await source.open(base), variant.override, base);
    },
    release(agent, conversationId) {
      source.release(variants.get(agent)?.agent ?? agent, conversationId);
    },
  };
}
