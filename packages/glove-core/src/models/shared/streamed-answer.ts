import type { ModelPromptResult, NotifySubscribersFunction, ToolCall } from "../../types/index.js";
import { announceResponse, announceToolUse } from "./response.js";

/**
 * What a stream reader gathers as events arrive: text (forwarded as deltas),
 * reasoning, tool calls (announced as each completes) and the stop reason.
 */
export class StreamedAnswer {
  text = "";
  reasoning = "";
  stopReason: string | undefined;
  readonly toolCalls: ToolCall[] = [];

  constructor(private readonly notify: NotifySubscribersFunction) {}

  async addText(chunk: string): Promise<void> {
    this.text += chunk;
    await this.notify("text_delta", { text: chunk });
  }

  async addToolCall(call: ToolCall): Promise<void> {
    this.toolCalls.push(call);
    await announceToolUse(this.notify, call);
  }

  /** Tells subscribers the answer is complete. */
  async complete(result: ModelPromptResult): Promise<void> {
    await announceResponse(this.notify, true, {
      text: this.text,
      toolCalls: this.toolCalls,
      stopReason: this.stopReason,
      result,
    });
  }
}
