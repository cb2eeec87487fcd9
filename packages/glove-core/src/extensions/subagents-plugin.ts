import * as z from "zod";
import type {
  AgentControls,
  ContentPart,
  DefineMentionArgs,
  DefineSubAgentArgs,
  GlovePlugin,
  Message,
  ModelPromptResult,
  Tool,
  ToolResultData,
  ToolRunContext,
} from "../types/index.js";
import { SUBAGENT_DISPATCH_TOOL_NAME } from "../constants.js";
import { AbortError } from "../errors.js";
import type { EventBus } from "../runtime/event-bus.js";
import { joinText } from "./skill-message.js";
import { SubagentCall } from "./subagent-call.js";

const invokeSchema = z.object({
  name: z.string().describe("The subagent to run."),
  prompt: z.string().describe("The complete task for the subagent. It sees nothing else of this conversation."),
});

type InvokeInput = z.infer<typeof invokeSchema>;
type Entry = { kind: "mention"; args: DefineMentionArgs } | { kind: "subagent"; args: DefineSubAgentArgs };

/** Everything the dispatcher needs from the parent Glove at call time. */
export interface SubagentHost {
  controls(): AgentControls;
  bus: EventBus;
}

/**
 * Owns `glove_invoke_subagent`, shared by mentions (handlers) and subagents
 * (factories that build a child Glove). Every call is bracketed by exactly one
 * subagent_invoked and one subagent_completed — also on failure and abort.
 */
export class SubagentsPlugin implements GlovePlugin {
  readonly name = "glove:subagents";
  private readonly entries = new Map<string, Entry>();
  private readonly tool: Tool<unknown>;

  constructor(private readonly host: SubagentHost) {
    // A getter, so subagents defined after build() appear in the next model call.
    const describe = () => this.describe();
    this.tool = {
      name: SUBAGENT_DISPATCH_TOOL_NAME,
      get description() {
        return describe();
      },
      input_schema: invokeSchema,
      // The call's id tags the child's slots; a durable call's waits record the child's store (subagent-call.ts).
      run: (input, _handOver, signal, context) => this.invoke(input as InvokeInput, signal, context),
    };
  }

  defineMention(args: DefineMentionArgs): void {
    this.entries.set(args.name, { kind: "mention", args });
  }

  defineSubAgent(args: DefineSubAgentArgs): void {
    this.entries.set(args.name, { kind: "subagent", args });
  }

  tools(): readonly Tool<unknown>[] {
    return this.entries.size ? [this.tool] : [];
  }

  private describe(): string {
    const lines = [...this.entries.values()].map(
      (e) => `- ${e.args.name}${e.args.description ? `: ${e.args.description}` : ""}`,
    );
    return (
      "Hand a task to a specialised subagent and get its answer back. When the user writes @name, route to that subagent. " +
      `The subagent sees only the prompt you give it. Subagents:\n${lines.join("\n")}`
    );
  }

  private async invoke(input: InvokeInput, signal?: AbortSignal, context?: ToolRunContext): Promise<ToolResultData> {
    const { bus } = this.host;
    await bus.emit("subagent_invoked", { name: input.name, prompt: input.prompt });
    let result: ToolResultData;
    try {
      result = await this.run(input, signal, context);
    } catch (error) {
      const aborted = signal?.aborted || AbortError.isInstance(error);
      const message = aborted ? "aborted" : error instanceof Error ? error.message : String(error);
      await bus.emit("subagent_completed", { name: input.name, status: "error", message });
      if (aborted) throw error instanceof Error ? error : new AbortError();
      return { status: "error", message: `Subagent "${input.name}" failed: ${message}`, data: null };
    }
    await bus.emit("subagent_completed", {
      name: input.name,
      status: result.status === "success" ? "success" : "error",
      message: result.message,
    });
    return result;
  }

  private async run(input: InvokeInput, signal?: AbortSignal, context?: ToolRunContext): Promise<ToolResultData> {
    const entry = this.entries.get(input.name);
    if (!entry) {
      const names = [...this.entries.keys()];
      return {
        status: "error",
        message: `Unknown subagent "${input.name}". Available subagents: ${names.join(", ") || "(none)"}.`,
        data: null,
      };
    }
    const controls = this.host.controls();
    if (entry.kind === "mention") {
      const output = await entry.args.handler({ name: input.name, prompt: input.prompt, controls, signal });
      return toolResult(input.name, output);
    }
    const call = new SubagentCall(input.name, controls.glove, context?.callId);
    const child = await entry.args.factory({
      name: input.name,
      prompt: input.prompt,
      parentStore: controls.glove.store,
      displayManager: call.display,
      controls,
      signal,
    });
    return toolResult(
      input.name,
      finalText(await call.run(child, input.prompt, this.host.bus, context?.waits, signal)),
    );
  }
}

function finalText(result: ModelPromptResult | Message): string {
  if ("messages" in result)
    return result.messages
      .map((m) => m.text)
      .join("\n")
      .trim();
  return result.text;
}

function toolResult(name: string, output: string | ContentPart[]): ToolResultData {
  const result: ToolResultData = { status: "success", data: { subagent: name, content: joinText(output) } };
  if (typeof output !== "string") result.renderData = output;
  return result;
}
