/** Runs a Glove whose model calls bridged tools, and collects the MCP App slots they push. */
import { Displaymanager, Glove, MemoryStore, type GloveConfig, type Slot, type ToolResult } from "glove-core";
import { ScriptedModel, type ScriptedStep } from "glove-core/testing";
import { bridgeMcpTools, MCP_APP_RENDERER, type McpAppSlotInput, type McpConnection } from "glove-mcp";

export interface AppRun {
  glove: Glove;
  display: Displaymanager;
  results: ToolResult[];
  apps: Array<Slot<McpAppSlotInput>>;
}

export async function runWithApps(
  connection: McpConnection,
  steps: ScriptedStep[],
  extra: Partial<GloveConfig> = {},
): Promise<AppRun> {
  const store = new MemoryStore("apps");
  const display = new Displaymanager();
  let glove = new Glove({
    store,
    model: new ScriptedModel(steps),
    displayManager: display,
    systemPrompt: "p",
    compaction_config: { compaction_instructions: "s" },
    serverMode: true,
    permissionPolicy: () => "granted",
    ...extra,
  });
  for (const fold of bridgeMcpTools(connection)) glove = glove.fold(fold);
  glove.build();
  await glove.processRequest("go");
  const results = (await store.getMessages()).flatMap((m): ToolResult[] => m.tool_results ?? []);
  const apps = display.stack.filter((slot) => slot.renderer === MCP_APP_RENDERER) as Array<Slot<McpAppSlotInput>>;
  return { glove, display, results, apps };
}
