import { ConfigurationError } from "glove-core/errors";
import type { ToolConfig, ToolView } from "../types/tool.js";

/** Local mode runs every tool in the tab, so each needs a `do`; a view there is a mistake. */
export function runnableTools(tools: readonly ToolView[]): ToolConfig[] {
  for (const tool of tools) {
    if (typeof (tool as Partial<ToolConfig>).do !== "function") {
      throw new ConfigurationError(
        `Tool "${tool.name}" has no do(): it is a view (defineToolView), which only draws a tool that runs on a glove-server. ` +
          "Local mode runs tools in the tab: define it with defineTool({ ..., do }), or attach to a server with useGlove({ server }).",
      );
    }
  }
  return tools as ToolConfig[];
}
