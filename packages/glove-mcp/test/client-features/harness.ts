import { afterEach } from "vitest";
import type { MemoryStore, Slot } from "glove-core";
import type { ScriptedStep } from "glove-core/testing";
import { mountMcp, type McpCatalogueEntry, type McpClientFeatureOptions, type McpMount } from "glove-mcp";
import { TestAdapter } from "../support/adapter.js";
import { fileServer } from "../support/file-server.js";
import { scriptedGlove, type ScriptedGlove } from "../support/scripted-glove.js";
import { startFeatureServer, type FeatureServerLog } from "./feature-server.js";

/** How to mount the feature server: server mode, client features, the scripted model's steps. */
export interface MountOptions {
  serverMode: boolean;
  clientFeatures?: McpClientFeatureOptions;
  steps?: ScriptedStep[];
  entry?: Partial<McpCatalogueEntry>;
  /** The conversation's store, shared with an earlier mount (a second process); default a new one. */
  store?: MemoryStore;
}

/** A Glove with a scripted model and the feature server mounted (already active). */
export interface Mounted extends ScriptedGlove {
  mount: McpMount;
  /** Calls `onSlot` once for every new slot of `renderer` (asynchronously, after the push). */
  onSlots(renderer: string, onSlot: (slot: Slot<unknown>) => void): void;
}

export async function mountWith(url: string, options: MountOptions): Promise<Mounted> {
  const agent = scriptedGlove(options.steps ?? [], {
    storeName: "features",
    ...(options.store ? { store: options.store } : {}),
    serverMode: options.serverMode,
    systemPrompt: "Use the tools.",
    compactionInstructions: "Summarise.",
  });
  const adapter = new TestAdapter();
  adapter.active.add("feat");
  adapter.tokens.set("feat", "unused");
  const entry: McpCatalogueEntry = {
    id: "feat",
    name: "Features",
    description: "client feature test server",
    url,
    ...options.entry,
  };
  const mount = await mountMcp(agent.glove, {
    adapter,
    entries: [entry],
    log: () => undefined,
    ...(options.clientFeatures ? { clientFeatures: options.clientFeatures } : {}),
  });
  if (mount.failed.length) throw new Error(`mount failed: ${mount.failed[0]!.reason}`);
  const seen = new Set<string>();
  return {
    ...agent,
    mount,
    onSlots(renderer, onSlot) {
      agent.dm.subscribe((stack) => {
        for (const slot of stack) {
          if (slot.renderer !== renderer || seen.has(slot.id)) continue;
          seen.add(slot.id);
          setTimeout(() => onSlot(slot), 0);
        }
      });
    },
  };
}

/**
 * The feature server of a test file and the mount of its running test: the mount is unmounted
 * after each test, the server stopped after the file. Call it at a test file's top level.
 */
export function featureServerFixture(): {
  readonly log: FeatureServerLog;
  mount(options: MountOptions): Promise<Mounted>;
} {
  const running = fileServer("the feature server", startFeatureServer);
  let current: Mounted | undefined;
  afterEach(async () => {
    await current?.mount.unmount();
    current = undefined;
  });
  return {
    get log() {
      return running().log;
    },
    async mount(options) {
      current = await mountWith(running().url, options);
      return current;
    },
  };
}
