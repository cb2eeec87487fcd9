import type { NotifySubscribersFunction } from "../../types/index.js";
import type { OpenAICompatAdapterOptions, OpenAICompatReasoningOptions } from "./options.js";

/** How an adapter treats reasoning, resolved once from its options. */
export interface ReasoningSettings {
  /** Reasoning options given (`reasoning: true` counts as `{}`), else undefined. */
  options: OpenAICompatReasoningOptions | undefined;
  /** Capture reasoning from answers. */
  on: boolean;
  /** Send Message.reasoning_content back on tool-calling turns. */
  echo: boolean;
  /** Show reasoning in the visible text as <think>…</think>. */
  includeInText: boolean;
}

export function resolveReasoning(options: OpenAICompatAdapterOptions): ReasoningSettings {
  const r = typeof options.reasoning === "object" ? options.reasoning : options.reasoning ? {} : undefined;
  return {
    options: r,
    on: r !== undefined,
    echo: r !== undefined && r.echo !== false,
    includeInText: (r?.includeInText ?? false) || (options.includeReasoningInText ?? false),
  };
}

/** The visible text of an answer: reasoning in <think> tags first when asked for. */
export function visibleText(settings: ReasoningSettings, text: string, reasoning: string): string {
  return settings.includeInText && reasoning ? `<think>${reasoning}</think>\n${text}` : text;
}

/** Streams reasoning as text deltas inside <think>…</think> (when asked for), closing the tag before the answer. */
export class ThinkTagStream {
  private open = false;

  constructor(
    private readonly settings: ReasoningSettings,
    private readonly notify: NotifySubscribersFunction,
  ) {}

  async reasoning(chunk: string): Promise<void> {
    if (!this.settings.includeInText) return;
    if (!this.open) {
      this.open = true;
      await this.notify("text_delta", { text: "<think>" });
    }
    await this.notify("text_delta", { text: chunk });
  }

  /** Closes an open <think> tag; called before answer text and at the end. */
  async close(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    await this.notify("text_delta", { text: "</think>\n" });
  }
}
