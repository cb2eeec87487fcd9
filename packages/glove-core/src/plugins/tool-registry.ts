import type { GlovePlugin, Tool } from "../types/index.js";

/**
 * A plugin that owns a mutable set of tools. Folded tools live in one; the
 * Executor's `registerTool` writes to one. Insertion order is kept so the model
 * sees tools in the order they were registered.
 */
export class ToolRegistryPlugin implements GlovePlugin {
  private readonly byName = new Map<string, Tool<unknown>>();
  private snapshot: readonly Tool<unknown>[] | undefined;

  constructor(readonly name: string) {}

  tools(): readonly Tool<unknown>[] {
    this.snapshot ??= [...this.byName.values()];
    return this.snapshot;
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  get(name: string): Tool<unknown> | undefined {
    return this.byName.get(name);
  }

  /** Adds or replaces a tool. */
  set(tool: Tool<unknown>): void {
    this.byName.set(tool.name, tool);
    this.snapshot = undefined;
  }

  delete(name: string): boolean {
    const removed = this.byName.delete(name);
    if (removed) this.snapshot = undefined;
    return removed;
  }
}
