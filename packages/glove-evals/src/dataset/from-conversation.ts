import { appendFile, mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import type { Message } from "glove-core";
import { EvalError } from "../errors.js";
import { parseItem } from "./dataset.js";
import type { EvalItem, EvalItemInput } from "./item-schema.js";

/** Where stored conversations are read from: glove-server's `storage.inspect` / `openInspector`, or a store. */
export type ConversationSource =
  | {
      messages(
        conversationId: string,
        page: { offset: number; limit: number },
      ): Promise<{ messages: Message[]; total: number }>;
    }
  | { getMessages(): Promise<Message[]> };

/**
 * Called with every item made from a stored conversation before it is returned or written: return
 * the item with personal data removed or replaced (names, emails, card numbers…), or `null` to
 * drop it. It sees the whole item, `input`, `expected` and `metadata` alike.
 */
export type RedactItem = (item: EvalItemInput) => EvalItemInput | null | Promise<EvalItemInput | null>;

export interface ItemFromConversationOptions {
  /** The redaction hook. Required, so that copying real data into a file is a decision: pass `(item) => item` to keep it as it is. */
  redact: RedactItem;
  /** The new item's id. Default: "conv-" and the conversation id. */
  id?: string;
  /** Stored beside the item (the conversation id is added as `metadata.conversationId`). */
  metadata?: Record<string, unknown>;
}

const PAGE = 500;

/**
 * An item made from a stored conversation: its user messages become the input (a multi-turn script
 * when there are several), the agent's tool calls the expected trajectory and its last answer the
 * expected output. It passes through `redact` before anything else sees it.
 */
export async function itemFromConversation(
  source: ConversationSource,
  conversationId: string,
  options: ItemFromConversationOptions,
): Promise<EvalItem | null> {
  if (typeof options?.redact !== "function") {
    throw new EvalError(
      "GLOVE_EVAL_DATASET",
      "itemFromConversation needs a redact hook: (item) => item with personal data removed (or (item) => item to keep it).",
    );
  }
  const messages = await readAll(source, conversationId);
  const userTurns = messages
    .filter((m) => m.sender === "user" && !m.tool_results?.length && !isSynthetic(m))
    .map((m) => m.pre_modified_text ?? m.text)
    .filter((text) => text.length > 0);
  if (!userTurns.length) {
    throw new EvalError(
      "GLOVE_EVAL_DATASET",
      `Conversation ${conversationId} has no user message to make an item from (is the id right?).`,
    );
  }
  const agent = messages.filter((m) => m.sender === "agent" && !m.is_compaction);
  const toolCalls = agent.flatMap((m) =>
    (m.tool_calls ?? []).map((call) => ({
      name: call.tool_name,
      ...(isRecord(call.input_args) ? { args: call.input_args } : {}),
    })),
  );
  const output = [...agent].reverse().find((m) => m.text && !m.tool_calls?.length)?.text;
  const draft: EvalItemInput = {
    id: options.id ?? `conv-${conversationId}`,
    input: userTurns.length === 1 ? userTurns[0]! : userTurns,
    expected: { ...(output !== undefined ? { output } : {}), ...(toolCalls.length ? { toolCalls } : {}) },
    metadata: { ...options.metadata, conversationId },
  };
  const redacted = await options.redact(draft);
  return redacted === null ? null : parseItem(redacted, `conversation ${conversationId}`, 0);
}

/** Appends items to a `.jsonl` dataset file (created with its folder when missing), one line each. */
export async function appendItems(file: string, items: EvalItemInput[]): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await appendFile(file, items.map((item) => JSON.stringify(item) + "\n").join(""), "utf8");
}

async function readAll(source: ConversationSource, conversationId: string): Promise<Message[]> {
  if ("getMessages" in source) return source.getMessages();
  const all: Message[] = [];
  for (;;) {
    const page = await source.messages(conversationId, { offset: all.length, limit: PAGE });
    all.push(...page.messages);
    if (!page.messages.length || all.length >= page.total) return all;
  }
}

function isSynthetic(m: Message): boolean {
  return Boolean(m.is_compaction_request || m.is_skill_injection || m.is_compaction || m.text.startsWith("[Inbox]"));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
