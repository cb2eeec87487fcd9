import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { PromptListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { ToolRegistryPlugin, toolFromFoldArgs, type IGloveRunnable } from "glove-core";
import { promptSkill, promptSkillName } from "./prompt-skills.js";
import { allPages, resourceTools } from "./resource-tools.js";
import type { McpClientFeatureOptions } from "./types.js";

/** The resource tools and prompt skills of connected servers, kept in step with their connections. */
export class ServerExtras {
  private readonly registry = new ToolRegistryPlugin("glove-mcp:resources");
  private installed = false;
  private readonly tools = new Map<string, string[]>();
  private readonly clients = new Map<string, Client>();
  private readonly skills = new Set<string>();

  constructor(
    private readonly glove: IGloveRunnable,
    private readonly options: McpClientFeatureOptions,
  ) {}

  async connected(id: string, client: Client): Promise<void> {
    this.clients.set(id, client);
    const capabilities = client.getServerCapabilities() ?? {};
    if (this.options.resources && capabilities.resources) {
      if (!this.installed) {
        this.glove.use(this.registry);
        this.installed = true;
      }
      const folds = resourceTools(id, client);
      for (const fold of folds) this.registry.set(toolFromFoldArgs(fold, this.glove));
      this.tools.set(
        id,
        folds.map((f) => f.name),
      );
    }
    if (this.options.prompts && capabilities.prompts) {
      // Prompts the server adds later become skills too; removed ones fail with McpPromptError when used.
      client.setNotificationHandler(PromptListChangedNotificationSchema, () => this.addPrompts(id, client));
      await this.addPrompts(id, client);
    }
  }

  /** Defines a skill for every prompt of the server not yet known. */
  private async addPrompts(id: string, client: Client): Promise<void> {
    // A prompt list the server fails to give leaves the tools usable; the skills just stay absent.
    const prompts = await allPages(async (cursor) => {
      const page = await client.listPrompts(cursor ? { cursor } : {});
      return { items: page.prompts, nextCursor: page.nextCursor };
    }).catch(() => []);
    if (this.clients.get(id) !== client) return; // closed or replaced meanwhile
    for (const prompt of prompts) {
      const name = promptSkillName(id, prompt.name);
      if (this.skills.has(name)) continue; // skills cannot be redefined; the handler reads the live client
      this.glove.defineSkill(promptSkill(id, prompt, () => this.clients.get(id)));
      this.skills.add(name);
    }
  }

  closed(id: string, client: Client): void {
    if (this.clients.get(id) !== client) return; // a newer connection already replaced it
    this.clients.delete(id);
    for (const name of this.tools.get(id) ?? []) this.registry.delete(name);
    this.tools.delete(id);
  }
}
