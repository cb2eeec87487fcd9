import type { IGloveRunnable } from "glove-core";
import { discoverySubAgent, type DiscoverySubAgentConfig } from "./discovery.js";
import { gloveClientFeatures, type GloveClientFeatures } from "./client-features/features.js";
import type { McpClientFeatureOptions } from "./client-features/types.js";
import { messageOf } from "./errors.js";
import { McpSession } from "./session.js";

/** What `mountMcp` needs: the discovery settings, where reload failures go, and an abort signal. */
export interface MountMcpConfig extends Omit<DiscoverySubAgentConfig, "session"> {
  /** Where reload failures (and failed tool-list refreshes) are reported. Default console.warn. */
  log?: (message: string) => void;
  /** Aborts the reload: entries not yet connected are reported as failed. */
  signal?: AbortSignal;
  /** Elicitation, sampling and roots for the mounted servers (see `gloveClientFeatures`). */
  clientFeatures?: McpClientFeatureOptions;
}

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
export async function mountMcp(glove: IGloveRunnable, config: MountMcpConfig): Promise<McpMount> {
  const log = config.log ?? ((message: string) => console.warn(message));
  const features = config.clientFeatures ? gloveClientFeatures(glove, config.clientFeatures) : undefined;
  const session = new McpSession(glove, config.adapter, config.entries, {
    log,
    ...(features ? { features } : {}),
    ...(config.connectTimeoutMs !== undefined ? { connectTimeoutMs: config.connectTimeoutMs } : {}),
    ...(config.onProgress ? { onProgress: config.onProgress } : {}),
  });
  const reloaded: string[] = [];
  const failed: Array<{ id: string; reason: string }> = [];
  for (const id of await config.adapter.getActive()) {
    try {
      await session.connect(id, config.signal ? { signal: config.signal } : {});
      reloaded.push(id);
    } catch (error) {
      const reason = messageOf(error);
      failed.push({ id, reason });
      log(`glove-mcp [${config.adapter.identifier}]: could not reload "${id}": ${reason}`);
    }
  }
  glove.defineSubAgent(discoverySubAgent({ ...config, session }));
  return {
    session,
    ...(features ? { features } : {}),
    reloaded,
    failed,
    deactivate: (id) => session.deactivate(id),
    unmount: () => session.close(),
  };
}
