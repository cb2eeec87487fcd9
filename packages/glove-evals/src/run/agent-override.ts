import type { GloveFoldArgs, IGloveBuilder, IGloveRunnable, ModelAdapter } from "glove-core";
import type { AgentContext, AgentFactory } from "glove-server";

/**
 * A variant of an agent: what an experiment changes in the app's own agent factory, and nothing
 * else. Everything is optional; an empty override runs the factory as it is.
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

/** The factory with the override applied: the same `(context) => Glove` glove-server serves. */
export function applyOverride(factory: AgentFactory, override: AgentOverride = {}): AgentFactory {
  return async (context) => {
    const glove = await factory(context);
    if (override.model) {
      glove.setModel(typeof override.model === "function" ? override.model(context) : override.model);
    }
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
  };
}
