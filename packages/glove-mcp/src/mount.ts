import type { IGloveRunnable } from "glove-core";
import { messageOf } from "./connect.js";
import { discoverySubAgent, type DiscoverySubAgentConfig } from "./discovery.js";
import { McpSession } from "./session.js";

/** What `mountMcp` needs: the discovery settings, plus where reload failures are reported. */
export interface MountMcpConfig extends Omit<DiscoverySubAgentConfig, "session"> {
  /** Where reload failures are reported. Default console.warn. */
  log?: (message: string) => void;
}

/** The MCP servers mounted on a Glove: what reloaded, what failed, and how to take them down. */
export interface McpMount {
  readonly session: McpSession;
  /** Ids reloaded at mount. */
  readonly reloaded: string[];
  /** Ids that failed to reload, with the reason. */
  readonly failed: Array<{ id: string; reason: string }>;
  deactivate(id: string): Promise<void>;
  /** Closes every connection and removes the bridged tools. */
  unmount(): Promise<void>;
}

/** Reloads the adapter's active entries (skipping failures) and registers the `discovermcp` subagent. */
export async function mountMcp(glove: IGloveRunnable, config: MountMcpConfig): Promise<McpMount> {
  const log = config.log ?? ((message: string) => console.warn(message));
  const session = new McpSession(glove, config.adapter, config.entries);
  const reloaded: string[] = [];
  const failed: Array<{ id: string; reason: string }> = [];
  for (const id of await config.adapter.getActive()) {
    try {
      await session.connect(id);
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
    reloaded,
    failed,
    deactivate: (id) => session.deactivate(id),
    unmount: () => session.close(),
  };
}
