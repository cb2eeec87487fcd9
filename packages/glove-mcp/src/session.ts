import { ToolRegistryPlugin, toolFromFoldArgs, type IGloveRunnable } from "glove-core";
import { bridgeMcpTools } from "./bridge.js";
import { connectMcp, type McpConnection } from "./connect.js";
import type { McpAdapter, McpCatalogueEntry } from "./types.js";

/**
 * The live MCP state of one Glove: open connections and the tools they contributed,
 * held in a tool-registry plugin so deactivation can take them off the running agent.
 */
export class McpSession {
  private readonly connections = new Map<string, { connection: McpConnection; tools: string[] }>();
  private readonly registry: ToolRegistryPlugin;
  private readonly pending = new Map<string, Promise<McpConnection>>();

  constructor(
    readonly glove: IGloveRunnable,
    readonly adapter: McpAdapter,
    readonly entries: McpCatalogueEntry[],
  ) {
    this.registry = new ToolRegistryPlugin(`glove-mcp:${adapter.identifier}`);
    glove.use(this.registry);
  }

  connection(id: string): McpConnection | undefined {
    return this.connections.get(id)?.connection;
  }

  /** The bridged tool names an entry contributed (empty when not connected). */
  toolNames(id: string): string[] {
    return [...(this.connections.get(id)?.tools ?? [])];
  }

  activeIds(): string[] {
    return [...this.connections.keys()];
  }

  /** Connects and adds the entry's bridged tools; a second call for a connected entry is a no-op. */
  async connect(id: string): Promise<McpConnection> {
    const existing = this.connections.get(id);
    if (existing) return existing.connection;
    const inflight = this.pending.get(id);
    if (inflight) return inflight;
    const entry = this.entries.find((e) => e.id === id);
    if (!entry) throw new Error(`No MCP catalogue entry "${id}"`);
    const promise = (async () => {
      const connection = await connectMcp(entry, { getAccessToken: (x) => this.adapter.getAccessToken(x) });
      const folds = bridgeMcpTools(connection, this.glove.serverMode);
      for (const fold of folds) this.registry.set(toolFromFoldArgs(fold, this.glove));
      this.connections.set(id, { connection, tools: folds.map((f) => f.name) });
      return connection;
    })();
    this.pending.set(id, promise);
    try {
      return await promise;
    } finally {
      this.pending.delete(id);
    }
  }

  /** Connects, then marks the entry active in the adapter. */
  async activate(id: string): Promise<McpConnection> {
    const connection = await this.connect(id);
    await this.adapter.activate(id);
    return connection;
  }

  /** Removes the entry's tools from the running Glove, closes its connection and marks it inactive. */
  async deactivate(id: string): Promise<void> {
    const live = this.connections.get(id);
    if (live) {
      this.connections.delete(id);
      for (const name of live.tools) this.registry.delete(name);
      await live.connection.close().catch(() => undefined);
    }
    await this.adapter.deactivate(id);
  }

  /** Closes every connection and removes their tools (the adapter's active set is kept for reload). */
  async close(): Promise<void> {
    const all = [...this.connections.values()];
    this.connections.clear();
    for (const live of all) for (const name of live.tools) this.registry.delete(name);
    await Promise.all(all.map((l) => l.connection.close().catch(() => undefined)));
  }
}
