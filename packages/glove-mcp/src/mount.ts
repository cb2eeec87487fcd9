import type { IGloveRunnable } from "glove-core";
import { discoverySubAgent, type DiscoverySubAgentConfig } from "./discovery.js";
import { gloveClientFeatures, type GloveClientFeatures } from "./client-features/features.js";
import type { McpClientFeatureOptions } from "./client-features/types.js";
import { messageOf } from "./errors.js";
import { MemoryMcpAdapter, type MemoryMcpAdapterOptions } from "./memory-adapter.js";
import { toCatalogueEntry, type McpServerSpec } from "./server-spec.js";
import { McpSession } from "./session.js";
import type { McpAdapter } from "./types.js";

/** What `mountMcp` needs: the discovery settings, where reload failures go, and an abort signal. */
export interface MountMcpConfig extends Omit<DiscoverySubAgentConfig, "session" | "adapter"> {
  /** Which entries are active, and their credentials. Default: a `MemoryMcpAdapter` with none active. */
  adapter?: McpAdapter;
  /** Where reload failures (and failed tool-list refreshes) are reported. Default console.warn. */
  log?: (message: string) => void;
  /** Aborts the reload: entries not yet connected are reported as failed. */
  signal?: AbortSignal;
  /** Elicitation, sampling and roots for the mounted servers (see `gloveClientFeatures`). */
  clientFeatures?: McpClientFeatureOptions;
}

/** Options of `mountMcp(glove, server, options)`: one server, connected now. */
export interface MountMcpServerOptions
  extends
    Pick<MountMcpConfig, "connectTimeoutMs" | "onProgress" | "signal" | "log" | "clientFeatures">,
    Pick<MemoryMcpAdapterOptions, "getAccessToken" | "getAuthProvider"> {}

/** The MCP servers mounted on a Glove: what reloaded, what failed, and how to take them down. */
export interface McpMount {
  readonly session: McpSession;
  /** The client features in use (`setRoots` sends `roots/list_changed`); absent without `clientFeatures`. */
  readonly features?: GloveClientFeatures;
  /** Ids reloaded at mount. */
  readonly reloaded: string[];
  /** Ids that failed to reload, with the reason. */
  readonly failed: Array<{ id: string; reason: string }>;
  deactivate(id: string): Promise<void>;
  /** Closes every connection and removes the bridged tools. */
  unmount(): Promise<void>;
}

/**
 * Reloads the adapter's active entries (skipping failures; each bounded by `connectTimeoutMs`)
 * and registers the `discovermcp` subagent.
 */
export async function mountMcp(glove: IGloveRunnable, config: MountMcpConfig): Promise<McpMount>;
/**
 * Connects one server (`{ command, args?, env?, cwd? }` or `{ url }`) and adds its tools to the
 * Glove, as `${id}__${tool}` (`id` defaults to "mcp"). Throws when it cannot connect; no
 * discovery subagent is added.
 */
export async function mountMcp(
  glove: IGloveRunnable,
  server: McpServerSpec,
  options?: MountMcpServerOptions,
): Promise<McpMount>;
export async function mountMcp(
  glove: IGloveRunnable,
  config: MountMcpConfig | McpServerSpec,
  options: MountMcpServerOptions = {},
): Promise<McpMount> {
  if (typeof config === "object" && config !== null && "entries" in config) return mountCatalogue(glove, config);
  const entry = toCatalogueEntry(config);
  const { getAccessToken, getAuthProvider } = options;
  const adapter = new MemoryMcpAdapter({ identifier: entry.id, active: [entry.id], getAccessToken, getAuthProvider });
  const { session, features } = openSession(glove, adapter, { ...options, entries: [entry] });
  // The caller asked for this one server: its typed error (McpAuthError, McpTimeoutError…) is theirs.
  await session.connect(entry.id, options.signal ? { signal: options.signal } : {});
  return mountOf(session, features, [entry.id], []);
}

async function mountCatalogue(glove: IGloveRunnable, config: MountMcpConfig): Promise<McpMount> {
  const adapter = config.adapter ?? new MemoryMcpAdapter();
  const { session, features, log } = openSession(glove, adapter, config);
  const reloaded: string[] = [];
  const failed: Array<{ id: string; reason: string }> = [];
  for (const id of await adapter.getActive()) {
    try {
      await session.connect(id, config.signal ? { signal: config.signal } : {});
      reloaded.push(id);
    } catch (error) {
      const reason = messageOf(error);
      failed.push({ id, reason });
      log(`glove-mcp [${adapter.identifier}]: could not reload "${id}": ${reason}`);
    }
  }
  glove.defineSubAgent(discoverySubAgent({ ...config, adapter, session }));
  return mountOf(session, features, reloaded, failed);
}

function openSession(glove: IGloveRunnable, adapter: McpAdapter, config: Omit<MountMcpConfig, "adapter">) {
  const log = config.log ?? ((message: string) => console.warn(message));
  const features = config.clientFeatures ? gloveClientFeatures(glove, config.clientFeatures) : undefined;
  const session = new McpSession(glove, adapter, config.entries, {
    log,
    ...(features ? { features } : {}),
    ...(config.connectTimeoutMs !== undefined ? { connectTimeoutMs: config.connectTimeoutMs } : {}),
    ...(config.onProgress ? { onProgress: config.onProgress } : {}),
  });
  return { session, features, log };
}

function mountOf(
  session: McpSession,
  features: GloveClientFeatures | undefined,
  reloaded: string[],
  failed: McpMount["failed"],
): McpMount {
  return {
    session,
    ...(features ? { features } : {}),
    reloaded,
    failed,
    deactivate: (id) => session.deactivate(id),
    unmount: () => session.close(),
  };
}
