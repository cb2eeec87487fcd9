import {
  Displaymanager,
  Glove,
  MemoryStore,
  type IGloveRunnable,
  type PermissionPolicy,
  type ToolResult,
} from "glove-core";
import { ScriptedModel, type ScriptedStep } from "glove-core/testing";

export interface ScriptedGlove {
  glove: IGloveRunnable;
  model: ScriptedModel;
  store: MemoryStore;
  dm: Displaymanager;
  /** Tool results of the conversation so far, in order. */
  results(): Promise<ToolResult[]>;
}

/**
 * The stand-in agent of these tests: a built Glove on a scripted model and an in-memory store
 * (server mode unless told otherwise), ready for `mountMcp`.
 */
export function scriptedGlove(
  steps: ScriptedStep[] = [],
  options: {
    storeName?: string;
    /** An existing store (another process's Glove over the same conversation); else a new MemoryStore. */
    store?: MemoryStore;
    serverMode?: boolean;
    systemPrompt?: string;
    compactionInstructions?: string;
    permissionPolicy?: PermissionPolicy;
  } = {},
): ScriptedGlove {
  const model = new ScriptedModel(steps);
  const store = options.store ?? new MemoryStore(options.storeName ?? "test");
  const dm = new Displaymanager();
  const glove = new Glove({
    store,
    model,
    displayManager: dm,
    systemPrompt: options.systemPrompt ?? "p",
    serverMode: options.serverMode ?? true,
    compaction_config: { compaction_instructions: options.compactionInstructions ?? "s" },
    ...(options.permissionPolicy ? { permissionPolicy: options.permissionPolicy } : {}),
  }).build();
  const results = async (): Promise<ToolResult[]> => (await store.getMessages()).flatMap((m) => m.tool_results ?? []);
  return { glove, model, store, dm, results };
}
