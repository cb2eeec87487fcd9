import * as z from "zod";
import type { AgentConfig, AgentControls, GlovePlugin, Tool, ToolResultData } from "../types/index.js";
import { ExtensionError } from "../errors.js";
import type { EventBus } from "../runtime/event-bus.js";
import { joinText } from "./skill-message.js";
import type { SkillRegistry } from "./skill-registry.js";

/** Name of the built-in tool through which the model invokes exposed skills. */
export const SKILL_INVOKE_TOOL_NAME = "glove_invoke_skill";

const invokeSchema = z.object({
  name: z.string().describe("The skill to invoke."),
  args: z.string().optional().describe("Free-form arguments for the skill."),
});

type InvokeInput = z.infer<typeof invokeSchema>;

/**
 * The `glove_invoke_skill` tool. Its description is computed on every read, so a
 * skill exposed after build() shows up on the next model call.
 */
export function createSkillInvokeTool(
  skills: SkillRegistry,
  controls: () => AgentControls,
  bus?: EventBus,
): Tool<InvokeInput> {
  return {
    name: SKILL_INVOKE_TOOL_NAME,
    get description() {
      const lines = skills.exposed().map((s) => `- ${s.name}${s.description ? `: ${s.description}` : ""}`);
      return `Invoke a skill: it returns instructions or context to apply to your work. Available skills:\n${lines.join("\n")}`;
    },
    input_schema: invokeSchema,
    async run(input): Promise<ToolResultData> {
      const skill = skills.get(input.name);
      if (!skill?.exposeToAgent) {
        const names = skills.exposed().map((s) => s.name);
        return {
          status: "error",
          message: `Skill "${input.name}" is not available. Available skills: ${names.join(", ") || "(none)"}.`,
          data: null,
        };
      }
      await bus?.emit("skill_invoked", { name: skill.name, source: "agent", args: input.args });
      let output;
      try {
        output = await skill.handler({
          name: skill.name,
          parsedText: input.args ?? "",
          args: input.args,
          source: "agent",
          controls: controls(),
        });
      } catch (error) {
        throw new ExtensionError("skill", skill.name, error);
      }
      const result: ToolResultData = { status: "success", data: { skill: skill.name, content: joinText(output) } };
      if (typeof output !== "string") result.renderData = output;
      return result;
    },
  };
}

/** Owns `glove_invoke_skill` while at least one in-scope skill is exposed; lists available skills in the prompt unless told not to. */
export class SkillsPlugin implements GlovePlugin {
  readonly name = "glove:skills";
  private readonly tool: Tool<unknown>;

  constructor(
    private readonly skills: SkillRegistry,
    controls: () => AgentControls,
    bus: EventBus,
    private readonly listInPrompt = true,
  ) {
    this.tool = createSkillInvokeTool(skills, controls, bus) as Tool<unknown>;
  }

  tools(): readonly Tool<unknown>[] {
    return this.skills.exposed().length ? [this.tool] : [];
  }

  resourceHints(): string | undefined {
    const available = this.skills.available();
    if (!this.listInPrompt || !available.length) return undefined;
    const lines = available.map((s) => `- /${s.name}${s.description ? `: ${s.description}` : ""}`);
    return `Skills available in this conversation:\n${lines.join("\n")}`;
  }

  scopedTools(config: AgentConfig): { tools: string[]; scopeLine?: string } {
    // The skill tool follows the agent's skills list, not its tools list.
    const inScope = config.skills === undefined || config.skills.length > 0;
    return {
      tools: inScope && this.skills.exposed().length ? [SKILL_INVOKE_TOOL_NAME] : [],
      scopeLine: config.skills ? `Skills you may use: ${config.skills.join(", ") || "(none)"}.` : undefined,
    };
  }
}
