import type { ContentPart, Message, ToolCall, ToolResult } from "../../types/index.js";
import { mergeConsecutive, userParts } from "./messages.js";

/** One turn of an API that wants strictly alternating user / assistant turns of content blocks (Anthropic, Bedrock). */
export interface Turn<B> {
  role: "user" | "assistant";
  content: B[];
}

/** How a provider writes each kind of content block. */
export interface TurnBlocks<B> {
  text(text: string): B;
  toolUse(call: ToolCall, index: number): B;
  toolResult(result: ToolResult): B;
  /** `index` is the part's position among the message's user parts. */
  userPart(part: ContentPart, index: number): B;
  isToolResult(block: B): boolean;
  /**
   * The agent message's stored reasoning blocks this provider takes back (signed thinking), in
   * their original order. They open the assistant turn, ahead of text and tool use, as the
   * providers that sign reasoning require.
   */
  reasoning?(message: Message): B[];
}

/** Sent as the opening user turn when a history starts with the model's turn. */
export const CONTINUE_TEXT = "(continuing the conversation)";

/** One Message as a turn: the agent's reasoning blocks, text then tool calls, or tool results then user parts. Null when empty. */
export function messageTurn<B>(message: Message, blocks: TurnBlocks<B>): Turn<B> | null {
  const content: B[] = [];
  if (message.sender === "agent") {
    if (blocks.reasoning) content.push(...blocks.reasoning(message));
    if (message.text) content.push(blocks.text(message.text));
    for (const [i, call] of (message.tool_calls ?? []).entries()) content.push(blocks.toolUse(call, i));
  } else {
    for (const r of message.tool_results ?? []) content.push(blocks.toolResult(r));
    userParts(message).forEach((part, i) => {
      if (part.type === "text" && !part.text) return;
      content.push(blocks.userPart(part, i));
    });
  }
  return content.length ? { role: message.sender === "agent" ? "assistant" : "user", content } : null;
}

/**
 * The turns as the API wants them: opening with a user turn, and consecutive
 * same-role turns merged (every block kept, images and documents included),
 * with a user turn's tool results first as the APIs require.
 */
export function alternatingTurns<B>(turns: Array<Turn<B> | null>, blocks: TurnBlocks<B>): Turn<B>[] {
  const present = turns.filter((turn): turn is Turn<B> => turn !== null);
  if (present[0]?.role === "assistant") present.unshift({ role: "user", content: [blocks.text(CONTINUE_TEXT)] });
  return mergeConsecutive(
    present,
    () => true,
    (a, b) => {
      const content = [...a.content, ...b.content];
      if (a.role === "user") content.sort((x, y) => Number(blocks.isToolResult(y)) - Number(blocks.isToolResult(x)));
      return { role: a.role, content };
    },
  );
}
