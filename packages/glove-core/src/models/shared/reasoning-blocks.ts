import type { ReasoningBlock } from "../../types/index.js";

/** Reasoning blocks as a response produces them: in order, signatures and redacted data verbatim. */
export class ReasoningCollector {
  readonly blocks: ReasoningBlock[] = [];

  constructor(private readonly provider: string) {}

  /** Starts a `thinking` block; the returned block takes later text and signature deltas. */
  thinking(text: string, signature: string | undefined): ReasoningBlock {
    const block: ReasoningBlock = { type: "thinking", text, provider: this.provider };
    if (signature) block.signature = signature;
    this.blocks.push(block);
    return block;
  }

  redacted(data: string): ReasoningBlock {
    const block: ReasoningBlock = { type: "redacted_thinking", data, provider: this.provider };
    this.blocks.push(block);
    return block;
  }
}
