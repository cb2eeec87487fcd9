import type { Message } from "../../types/index.js";
import type { Block } from "./wire-types.js";

/** Provider tag of reasoning blocks read from Converse: only a Bedrock adapter sends them back. */
export const BEDROCK_PROVIDER = "bedrock";

/**
 * The stored reasoning blocks of an agent message as Converse `reasoningContent` blocks, in their
 * original order: signed reasoning text, and redacted content (base64, as Converse's JSON
 * carries bytes). Blocks from other providers, and unsigned text, stay behind.
 */
export function converseReasoning(message: Message): Block[] {
  const out: Block[] = [];
  for (const block of message.reasoning_blocks ?? []) {
    if (block.provider !== BEDROCK_PROVIDER) continue;
    if (block.type === "redacted_thinking") {
      if (block.data) out.push({ reasoningContent: { redactedContent: block.data } });
    } else if (block.signature) {
      out.push({ reasoningContent: { reasoningText: { text: block.text ?? "", signature: block.signature } } });
    }
  }
  return out;
}
