import type {
  AgentConfig,
  GlovePlugin,
  RequestContext,
  RequestContribution,
  SubscriberEvent,
  Tool,
  ToolDispatch,
  ToolResultData,
} from "../types/index.js";

/**
 * Presents many plugins as one (RFC 0075's composite hook): tools are unioned,
 * dispatch goes to the first owner, prompt fragments and configs are chained,
 * lifecycle calls fan out. The runtime only ever talks to this.
 */
export class CompositePlugin implements GlovePlugin {
  readonly name = "composite";
  private readonly plugins: GlovePlugin[] = [];

  constructor(plugins: GlovePlugin[] = []) {
    for (const p of plugins) this.add(p);
  }

  list(): readonly GlovePlugin[] {
    return this.plugins;
  }

  add(plugin: GlovePlugin): void {
    this.plugins.push(plugin);
  }

  remove(plugin: GlovePlugin): boolean {
    const i = this.plugins.indexOf(plugin);
    if (i < 0) return false;
    this.plugins.splice(i, 1);
    return true;
  }

  /** Replaces the plugin with the same name, or adds it. */
  replaceByName(plugin: GlovePlugin): void {
    const i = this.plugins.findIndex((p) => p.name === plugin.name);
    if (i < 0) this.plugins.push(plugin);
    else this.plugins[i] = plugin;
  }

  removeByName(name: string): void {
    const i = this.plugins.findIndex((p) => p.name === name);
    if (i >= 0) this.plugins.splice(i, 1);
  }

  /**
   * Every tool, each name once: the first owner wins, as in `findTool` and dispatch, so a plugin
   * whose `tools()` later returns a taken name can never put a duplicate in front of a provider.
   */
  tools(): Tool<unknown>[] {
    const out: Tool<unknown>[] = [];
    const names = new Set<string>();
    for (const p of this.plugins) {
      const tools = p.tools?.();
      if (!tools) continue;
      for (const t of tools) {
        if (names.has(t.name)) {
          this.warnShadowed(p, t.name);
          continue;
        }
        names.add(t.name);
        out.push(t);
      }
    }
    return out;
  }

  private readonly shadowWarnings = new Set<string>();

  private warnShadowed(plugin: GlovePlugin, name: string): void {
    const key = `${plugin.name}\u0000${name}`;
    if (this.shadowWarnings.has(key)) return;
    this.shadowWarnings.add(key);
    console.warn(
      `[glove] Plugin "${plugin.name}" offers a tool named "${name}", which another plugin already owns; the model only sees the first one.`,
    );
  }

  /** The tool with this name and the plugin that owns it, first owner wins. */
  findTool(name: string): { tool: Tool<unknown>; owner: GlovePlugin } | undefined {
    for (const p of this.plugins) {
      const tools = p.tools?.();
      if (!tools) continue;
      for (const t of tools) if (t.name === name) return { tool: t, owner: p };
    }
    return undefined;
  }

  systemPrompt(): string | undefined {
    const parts: string[] = [];
    for (const p of this.plugins) {
      const fragment = p.systemPrompt?.();
      if (fragment) parts.push(fragment);
    }
    return parts.length ? parts.join("\n\n") : undefined;
  }

  /** Union of every plugin's in-scope tools, and their scope lines. */
  scopedTools(config: AgentConfig): { tools: string[]; scopeLine?: string } {
    const tools: string[] = [];
    const lines: string[] = [];
    for (const p of this.plugins) {
      const scoped = p.scopedTools
        ? p.scopedTools(config)
        : { tools: (p.tools?.() ?? []).map((t) => t.name).filter((n) => !config.tools || config.tools.includes(n)) };
      tools.push(...scoped.tools);
      if (scoped.scopeLine) lines.push(scoped.scopeLine);
    }
    return { tools, scopeLine: lines.length ? lines.join("\n") : undefined };
  }

  resourceHints(config: AgentConfig): string | undefined {
    const hints: string[] = [];
    for (const p of this.plugins) {
      const hint = p.resourceHints?.(config);
      if (hint) hints.push(hint);
    }
    return hints.length ? hints.join("\n\n") : undefined;
  }

  onBuild(config: AgentConfig): AgentConfig {
    return this.plugins.reduce((c, p) => p.onBuild?.(c) ?? c, config);
  }

  onRegister(agent: string, config: AgentConfig): void {
    for (const p of this.plugins) p.onRegister?.(agent, config);
  }

  onUnregister(agent: string): void {
    for (const p of this.plugins) p.onUnregister?.(agent);
  }

  async onEvent(agent: string, conversationId: string, event: SubscriberEvent): Promise<void> {
    for (const p of this.plugins) {
      if (!p.onEvent) continue;
      try {
        await p.onEvent(agent, conversationId, event);
      } catch (error) {
        console.error(`[glove] plugin "${p.name}" failed in onEvent; continuing.`, error);
      }
    }
  }

  async preprocess(agent: string, text: string): Promise<string | undefined> {
    let current: string | undefined;
    for (const p of this.plugins) {
      const next = await p.preprocess?.(agent, current ?? text);
      if (next !== undefined) current = next;
    }
    return current;
  }

  dispatch(name: string, call: ToolDispatch): Promise<ToolResultData> | undefined {
    for (const p of this.plugins) {
      const pending = p.dispatch?.(name, call);
      if (pending) return pending;
    }
    return undefined;
  }

  async beforeRequest(ctx: RequestContext): Promise<RequestContribution> {
    const messages: NonNullable<RequestContribution["messages"]> = [];
    const reminders: string[] = [];
    const persisted: Array<() => Promise<void>> = [];
    for (const p of this.plugins) {
      const c = await p.beforeRequest?.(ctx);
      if (!c) continue;
      if (c.messages) messages.push(...c.messages);
      if (c.reminder) reminders.push(c.reminder);
      if (c.onPersisted) persisted.push(c.onPersisted);
    }
    return {
      messages,
      reminder: reminders.length ? reminders.join("\n\n") : undefined,
      onPersisted: persisted.length
        ? async () => {
            for (const fn of persisted) await fn();
          }
        : undefined,
    };
  }
}
