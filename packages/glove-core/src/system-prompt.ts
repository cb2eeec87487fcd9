import type { AgentConfig } from "./types/index.js";
import type { CompositePlugin } from "./plugins/composite.js";

/** OS, platform and date, without touching any Node-only module (the core is browser-safe). */
export function environmentBlock(now = new Date()): string {
  const g = globalThis as {
    process?: { platform?: string; arch?: string; version?: string };
    navigator?: { userAgent?: string; platform?: string };
  };
  const lines = [`Date: ${now.toISOString().slice(0, 10)}`];
  if (g.process?.platform) lines.push(`Platform: ${g.process.platform}${g.process.arch ? ` (${g.process.arch})` : ""}`);
  else if (g.navigator?.platform) lines.push(`Platform: ${g.navigator.platform}`);
  if (g.process?.version) lines.push(`Runtime: Node.js ${g.process.version}`);
  else if (g.navigator?.userAgent) lines.push(`Runtime: ${g.navigator.userAgent}`);
  return `<environment>\n${lines.join("\n")}\n</environment>`;
}

/**
 * The system prompt of a call, assembled in RFC 0075's order: the agent's prompt,
 * the environment block, plugin fragments, resource hints, the scope lines.
 */
export function composeSystemPrompt(
  config: AgentConfig,
  plugins: CompositePlugin,
  options: { environment?: boolean; scoped: boolean },
): string {
  const parts = [config.systemPrompt];
  if (options.environment) parts.push(environmentBlock());
  const fragments = plugins.systemPrompt();
  if (fragments) parts.push(fragments);
  const hints = plugins.resourceHints(config);
  if (hints) parts.push(hints);
  if (options.scoped) {
    const scope = plugins.scopedTools(config);
    const lines = [
      config.tools ? `Tools you may use: ${scope.tools.join(", ") || "(none)"}.` : undefined,
      scope.scopeLine,
    ].filter(Boolean);
    if (lines.length) parts.push(`<scope>\n${lines.join("\n")}\n</scope>`);
  }
  return parts.join("\n\n");
}
