import type { Message } from "../../types/index.js";
import type { Block } from "./wire-types.js";

/**
 * The stored reasoning blocks of an agent message as Messages API blocks, in their original
 * order. Only blocks this provider produced go back (a signature from elsewhere fails its check
 * and the API answers 400); a thinking block without a signature cannot be verified either, so it
 * stays behind. Their text is never sent as text.
 */
export function anthropicReasoning(provider: string): (message: Message) => Block[] {
  return (message) => {
    const out: Block[] = [];
    for (const block of message.reasoning_blocks ?? []) {
      if (block.provider !== provider) continue;
      if (block.type === "redacted_thinking") {
        if (block.data) out.push({ type: "redacted_thinking", data: block.data });
      } else if (block.signature) {
        out.push({ type: "thinking", thinking: block.text ?? "", signature: block.signature });
      }
    }
    return out;
  };
}
