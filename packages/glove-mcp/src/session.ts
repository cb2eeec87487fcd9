import { ToolRegistryPlugin, toolFromFoldArgs, type IGloveRunnable } from "glove-core";
import { bridgeMcpTools, type BridgeMcpOptions } from "./bridge.js";
import { connectMcp, type ConnectMcpOptions, type McpConnection } from "./connect.js";
import type { McpClientFeatures } from "./client-features/types.js";
import { messageOf } from "./errors.js";
import type { McpAdapter, McpCatalogueEntry } from "./types.js";

/** How a session connects and bridges: the connect bound, progress reporting, where problems go. */
export interface McpSessionOptions extends BridgeMcpOptions {
  /** Bounds each connection (see `connectMcp`). Default 30 000 ms. */
  connectTimeoutMs?: number;
  /** Where background problems (a failed tool-list refresh) are reported. Default console.warn. */
  log?: (message: string) => void;
  /** Client features (elicitation, sampling, roots) every connection declares. */
  features?: McpClientFeatures;
}

/** Per-call options of `connect` / `activate`. */
export interface McpConnectCallOptions {
  signal?: AbortSignal;
}

interface Live {
  connection: McpConnection;
  tools: string[];
}

/**
 * The live MCP state of one Glove: open connections and the tools they contributed,
 * held in a tool-registry plugin so deactivation (and a server's `tools/list_changed`) can
 * change them on the running agent.
 */
export class McpSession {
  private readonly connections = new Map<string, Live>();
  private readonly registry: ToolRegistryPlugin;
  private readonly pending = new Map<string, Promise<McpConnection>>();

  constructor(
    readonly glove: IGloveRunnable,
    readonly adapter: McpAdapter,
    readonly entries: McpCatalogueEntry[],
    readonly options: McpSessionOptions = {},
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
  async connect(id: string, call: McpConnectCallOptions = {}): Promise<McpConnection> {
    const existing = this.connections.get(id);
    if (existing) return existing.connection;
    const inflight = this.pending.get(id);
    if (inflight) return inflight;
    const entry = this.entries.find((e) => e.id === id);
    if (!entry) throw new Error(`No MCP catalogue entry "${id}"`);
    const promise = this.open(entry, call);
    this.pending.set(id, promise);
    try {
      return await promise;
    } finally {
      this.pending.delete(id);
    }
  }

  private async open(entry: McpCatalogueEntry, call: McpConnectCallOptions): Promise<McpConnection> {
    const log = this.options.log ?? ((message: string) => console.warn(message));
    const authProvider = entry.stdio ? undefined : await this.adapter.getAuthProvider?.(entry.id);
    const options: ConnectMcpOptions = {
      ...(authProvider ? { authProvider } : { getAccessToken: (x: string) => this.adapter.getAccessToken(x) }),
      ...(this.options.connectTimeoutMs !== undefined ? { connectTimeoutMs: this.options.connectTimeoutMs } : {}),
      ...(call.signal ? { signal: call.signal } : {}),
      ...(this.options.features ? { features: this.options.features } : {}),
      onError: (error: unknown) =>
        log(
          `glove-mcp [${this.adapter.identifier}]: could not re-read the tools of "${entry.id}": ${messageOf(error)}`,
        ),
    };
    const connection = await connectMcp(entry, options);
    const live: Live = { connection, tools: [] };
    this.connections.set(entry.id, live);
    try {
      this.rebridge(live);
    } catch (error) {
      this.connections.delete(entry.id);
      for (const name of live.tools) this.registry.delete(name);
      await connection.close().catch(() => undefined);
      throw error;
    }
    connection.onToolsChanged(() => {
      if (this.connections.get(entry.id) === live) this.rebridge(live);
    });
    await this.options.features?.connected?.(connection);
    return connection;
  }

  /** Brings the registry in line with the connection's current tool list: new tools in, removed ones out. */
  private rebridge(live: Live): void {
    const folds = bridgeMcpTools(live.connection, this.options);
    const names = new Set(folds.map((f) => f.name));
    for (const name of live.tools) if (!names.has(name)) this.registry.delete(name);
    for (const fold of folds) this.registry.set(toolFromFoldArgs(fold, this.glove));
    live.tools = [...names];
  }

  /** Connects, then marks the entry active in the adapter. */
  async activate(id: string, call: McpConnectCallOptions = {}): Promise<McpConnection> {
    const connection = await this.connect(id, call);
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
