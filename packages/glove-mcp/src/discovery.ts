import { Glove, MemoryStore, type DefineSubAgentArgs, type ModelAdapter } from "glove-core";
import type { BridgeMcpOptions } from "./bridge.js";
import { messageOf } from "./errors.js";
import { McpSession } from "./session.js";
import type { McpAdapter, McpCatalogueEntry } from "./types.js";

/** Name of the subagent the main agent calls to find and activate MCP servers. */
export const DISCOVERY_SUBAGENT_NAME = "discovermcp";
/** Display-stack renderer key the interactive policy pushes. */
export const MCP_PICKER_RENDERER = "mcp_picker";

/**
 * What discovery does when several servers match: ask the user, take the best match, or hand the
 * candidates back to the main agent.
 */
export type AmbiguityPolicy = { type: "interactive" } | { type: "auto-pick-best" } | { type: "defer-to-main" };

/** What the `mcp_picker` slot receives; it resolves with the chosen id (or `{ id }`), null to cancel. */
export interface McpPickerInput {
  query: string;
  candidates: Array<Pick<McpCatalogueEntry, "id" | "name" | "description" | "tags">>;
}

/**
 * What the discovery subagent needs: the catalogue, where activation is kept, and how to settle ambiguous
 * matches.
 */
export interface DiscoverySubAgentConfig {
  adapter: McpAdapter;
  entries: McpCatalogueEntry[];
  /** Default: auto-pick-best in serverMode, interactive otherwise. */
  ambiguityPolicy?: AmbiguityPolicy;
  subagentModel?: ModelAdapter;
  subagentSystemPrompt?: string;
  /** Shared activation state; mountMcp passes its own. */
  session?: McpSession;
  /** Bounds each connection (see `connectMcp`). Default 30 000 ms. */
  connectTimeoutMs?: number;
  /** Receives progress notifications of running bridged tool calls. */
  onProgress?: BridgeMcpOptions["onProgress"];
}

const STOP_WORDS = new Set([
  "a",
  "an",
  "the",
  "for",
  "to",
  "of",
  "and",
  "or",
  "mcp",
  "server",
  "find",
  "use",
  "with",
  "my",
  "me",
  "i",
  "in",
  "on",
]);

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !STOP_WORDS.has(w));
}

/** Catalogue entries matching a query by id, name, tags and description, best first. */
export function matchCatalogue(entries: readonly McpCatalogueEntry[], query: string): McpCatalogueEntry[] {
  const q = words(query);
  const scored = entries.map((entry, index) => {
    const name = new Set([...words(entry.id), ...words(entry.name)]);
    const tags = new Set((entry.tags ?? []).flatMap(words));
    const description = new Set(words(entry.description));
    let score = 0;
    for (const w of q) {
      if (name.has(w)) score += 5;
      if (tags.has(w)) score += 3;
      if (description.has(w)) score += 1;
    }
    return { entry, index, score };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((s) => s.entry);
}

const DEFAULT_SYSTEM_PROMPT =
  "You find and activate MCP servers for the main agent. Call mcp_activate with a short description of the " +
  "capability needed (or an exact id from mcp_list_catalogue). Then answer in one or two sentences: which server " +
  "was activated and the names of its tools, or the candidates if you were asked to defer, or that nothing matched.";

/** The `discovermcp` subagent: matches the catalogue, resolves ambiguity, activates, adds tools to the parent. */
export function discoverySubAgent(config: DiscoverySubAgentConfig): DefineSubAgentArgs {
  let session = config.session;
  return {
    name: DISCOVERY_SUBAGENT_NAME,
    description:
      "Finds, connects and activates MCP servers (external tools) from the app's catalogue. Give it the capability you need.",
    async factory(ctx) {
      const parent = ctx.controls.glove;
      session ??= new McpSession(parent, config.adapter, config.entries, {
        ...(config.connectTimeoutMs !== undefined ? { connectTimeoutMs: config.connectTimeoutMs } : {}),
        ...(config.onProgress ? { onProgress: config.onProgress } : {}),
      });
      const live = session;
      const policy: AmbiguityPolicy =
        config.ambiguityPolicy ?? (parent.serverMode ? { type: "auto-pick-best" } : { type: "interactive" });
      const store =
        (await ctx.parentStore.createSubAgentStore?.(DISCOVERY_SUBAGENT_NAME)) ??
        new MemoryStore(`${DISCOVERY_SUBAGENT_NAME}-${Date.now()}`);
      const describeEntry = (e: McpCatalogueEntry) => ({
        id: e.id,
        name: e.name,
        description: e.description,
        tags: e.tags,
      });
      const activated = async (entry: McpCatalogueEntry, signal: AbortSignal | undefined) => {
        await live.activate(entry.id, signal ? { signal } : {});
        const tools = live.toolNames(entry.id);
        return { status: "success" as const, data: { activated: entry.id, name: entry.name, tools } };
      };
      const child = new Glove({
        store,
        model: config.subagentModel ?? parent.model,
        displayManager: ctx.displayManager,
        systemPrompt: config.subagentSystemPrompt ?? DEFAULT_SYSTEM_PROMPT,
        serverMode: parent.serverMode,
        compaction_config: { compaction_instructions: "Summarise the discovery so far." },
        name: DISCOVERY_SUBAGENT_NAME,
      })
        .fold<Record<string, never>>({
          name: "mcp_list_catalogue",
          description: "List every MCP server in the catalogue with whether it is active.",
          jsonSchema: { type: "object", properties: {} },
          async do() {
            const active = new Set(await config.adapter.getActive());
            return config.entries.map((e) => ({ ...describeEntry(e), active: active.has(e.id) }));
          },
        })
        .fold<{ query?: string; id?: string }>({
          name: "mcp_activate",
          description:
            "Activate the MCP server that best matches `query` (or exactly `id`) and add its tools to the main agent.",
          jsonSchema: {
            type: "object",
            properties: {
              query: { type: "string", description: "The capability or service needed." },
              id: { type: "string", description: "An exact catalogue id." },
            },
          },
          async do(input, display, _glove, signal) {
            try {
              if (input.id) {
                const entry = config.entries.find((e) => e.id === input.id);
                if (!entry) return { status: "error", message: `No catalogue entry "${input.id}"`, data: null };
                return await activated(entry, signal);
              }
              const query = input.query ?? "";
              const matches = matchCatalogue(config.entries, query);
              if (matches.length === 0) {
                return { status: "error", message: `No MCP server matches "${query}"`, data: { candidates: [] } };
              }
              if (matches.length === 1 || policy.type === "auto-pick-best") return await activated(matches[0]!, signal);
              const candidates = matches.map(describeEntry);
              if (policy.type === "defer-to-main") {
                return {
                  status: "success",
                  data: {
                    ambiguous: true,
                    candidates,
                    instruction: "Several MCP servers match; the main agent should pick one and ask for it by id.",
                  },
                };
              }
              const picked = await display.pushAndWait<McpPickerInput, unknown>({
                renderer: MCP_PICKER_RENDERER,
                input: { query, candidates },
              });
              const pickedId =
                typeof picked === "string" ? picked : (picked as { id?: unknown } | null | undefined)?.id;
              const entry = matches.find((e) => e.id === pickedId);
              if (!entry) return { status: "error", message: "No MCP server was picked", data: null };
              return await activated(entry, signal);
            } catch (error) {
              return { status: "error", message: `Activation failed: ${messageOf(error)}`, data: null };
            }
          },
        });
      return child.build();
    },
  };
}
