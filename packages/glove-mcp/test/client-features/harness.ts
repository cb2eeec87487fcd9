import { Displaymanager, Glove, MemoryStore, type IGloveRunnable, type Slot, type ToolResult } from "glove-core";
import { ScriptedModel, type ScriptedStep } from "glove-core/testing";
import { mountMcp, type McpCatalogueEntry, type McpClientFeatureOptions, type McpMount } from "glove-mcp";
import { TestAdapter } from "../support/adapter.js";

/** A Glove with a scripted model and the feature server mounted (already active). */
export interface Mounted {
  glove: IGloveRunnable;
  model: ScriptedModel;
  store: MemoryStore;
  dm: Displaymanager;
  mount: McpMount;
  /** Tool results of the conversation so far, in order. */
  results(): Promise<ToolResult[]>;
  /** Calls `onSlot` once for every new slot of `renderer` (asynchronously, after the push). */
  onSlots(renderer: string, onSlot: (slot: Slot<unknown>) => void): void;
}

export async function mountWith(
  url: string,
  options: { serverMode: boolean; clientFeatures?: McpClientFeatureOptions; steps?: ScriptedStep[]; entry?: Partial<McpCatalogueEntry> },
): Promise<Mounted> {
  const model = new ScriptedModel(options.steps ?? []);
  const store = new MemoryStore("features");
  const dm = new Displaymanager();
  const glove = new Glove({
    store,
    model,
    displayManager: dm,
    systemPrompt: "Use the tools.",
    serverMode: options.serverMode,
    compaction_config: { compaction_instructions: "Summarise." },
  }).build();
  const adapter = new TestAdapter();
  adapter.active.add("feat");
  adapter.tokens.set("feat", "unused");
  const entry: McpCatalogueEntry = { id: "feat", name: "Features", description: "client feature test server", url, ...options.entry };
  const mount = await mountMcp(glove, {
    adapter,
    entries: [entry],
    log: () => undefined,
    ...(options.clientFeatures ? { clientFeatures: options.clientFeatures } : {}),
  });
  if (mount.failed.length) throw new Error(`mount failed: ${mount.failed[0]!.reason}`);
  const seen = new Set<string>();
  return {
    glove,
    model,
    store,
    dm,
    mount,
    results: async () => (await store.getMessages()).flatMap((m) => m.tool_results ?? []),
    onSlots(renderer, onSlot) {
      dm.subscribe((stack) => {
        for (const slot of stack) {
          if (slot.renderer !== renderer || seen.has(slot.id)) continue;
          seen.add(slot.id);
          setTimeout(() => onSlot(slot), 0);
        }
      });
    },
  };
}
