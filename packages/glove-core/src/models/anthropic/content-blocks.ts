import type { ContentPart } from "../../types/index.js";
import { argsObject, isErrorResult, parseArgs, toolResultContent } from "../shared/messages.js";
import type { TurnBlocks } from "../shared/turns.js";
import type { WireShape } from "../shared/wire-shape.js";
import { anthropicReasoning } from "./reasoning.js";
import type { Block } from "./wire-types.js";

/** One user content part as an Anthropic block (images and documents, base64 or URL). */
export function toAnthropicBlock(part: ContentPart): Block {
  if (part.type === "text") return { type: "text", text: part.text ?? "" };
  const source = part.source;
  if ((part.type === "image" || part.type === "document") && source) {
    const src =
      source.type === "url" || (source.data === undefined && source.url)
        ? { type: "url", url: source.url }
        : source.media_type === "text/plain" && part.type === "document"
          ? { type: "text", media_type: "text/plain", data: decodeBase64Text(source.data ?? "") }
          : { type: "base64", media_type: source.media_type, data: source.data };
    return { type: part.type, source: src };
  }
  return { type: "text", text: `[${part.type} omitted: not supported by the Messages API]` };
}

function decodeBase64Text(data: string): string {
  try {
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return data;
  }
}

/** How the Messages API writes each kind of block. */
export const ANTHROPIC_BLOCKS: TurnBlocks<Block> = {
  text: (text) => ({ type: "text", text }),
  toolUse: (call, i) => ({
    type: "tool_use",
    id: call.id ?? `toolu_${i}`,
    name: call.tool_name,
    input: argsObject(call.input_args),
  }),
  toolResult: (r) => {
    const block: Block = {
      type: "tool_result",
      tool_use_id: r.call_id ?? r.tool_name,
      content: toolResultContent(r.result),
    };
    if (isErrorResult(r.result)) block["is_error"] = true;
    return block;
  },
  userPart: (part) => toAnthropicBlock(part),
  isToolResult: (block) => block.type === "tool_result",
};

/**
 * The input of a tool_use block: the object itself; JSON text (some proxies send it as a string) is
 * parsed like streamed arguments; absent is `{}`. Anything else is the wrong shape.
 */
export function toolInput(shape: WireShape, value: unknown, path: string): unknown {
  if (value === undefined || value === null) return {};
  if (typeof value === "string") return parseArgs(value);
  return shape.object(value, path);
}

/** The block writers of an adapter whose reasoning blocks are tagged `provider`: they send back only their own. */
export function anthropicBlocks(provider: string): TurnBlocks<Block> {
  return { ...ANTHROPIC_BLOCKS, reasoning: anthropicReasoning(provider) };
}
