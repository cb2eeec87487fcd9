import type { Message } from "../../types/index.js";
import { argsString, mergeConsecutive, toolResultContent, userParts } from "../shared/messages.js";
import { setField, withExtras } from "./call-extras.js";
import { toChatPart } from "./content-parts.js";
import { mergeMessageExtras } from "./message-extras.js";
import type { ChatContent, ChatMessage } from "./wire-types.js";
import { mapPacked } from "../../runtime/shapes.js";

interface Mapped {
  messages: ChatMessage[];
  json: string[];
}

interface Memo {
  history: Message[];
  count: number;
  first: Message | undefined;
  last: Message | undefined;
  lastRole: string;
  json: string;
}

/** Encodes a conversation's history as chat messages, reusing the work done for earlier prompts. */
export class ChatHistoryEncoder {
  private readonly cache = new WeakMap<Message, Mapped>();
  private memo: Memo | undefined;

  /**
   * @param echo send reasoning_content back on tool-calling turns
   * @param provider the adapter's provider id: only its own messages' extras are sent back
   */
  constructor(
    private readonly echo: boolean,
    private readonly provider: string,
  ) {}

  /**
   * The history as comma-joined JSON. The runtime hands the same append-only
   * array on every call of a conversation, so when it is the array seen last
   * time (same first and last-seen message) only the new messages are mapped
   * and appended to the text built before; anything else rebuilds from the
   * per-message cache.
   */
  json(history: Message[]): string {
    const memo = this.memo;
    const count = history.length;
    if (
      memo &&
      memo.history === history &&
      count >= memo.count &&
      memo.count > 0 &&
      history[0] === memo.first &&
      history[memo.count - 1] === memo.last
    ) {
      let role = memo.lastRole;
      let mergeNeeded = false;
      let added = "";
      for (let i = memo.count; i < count; i++) {
        const mapped = this.mapMessage(history[i]!);
        for (const m of mapped.messages) {
          if (m.role === role && m.role !== "tool") mergeNeeded = true;
          role = m.role;
        }
        for (const json of mapped.json) added = added ? `${added},${json}` : json;
      }
      if (!mergeNeeded) {
        if (added) memo.json = memo.json ? `${memo.json},${added}` : added;
        memo.count = count;
        memo.last = history[count - 1];
        memo.lastRole = role;
        return memo.json;
      }
    }
    const out: string[] = [];
    const lastRole = this.appendMessages(history, out);
    const json = out.join(",");
    this.memo = count ? { history, count, first: history[0], last: history[count - 1], lastRole, json } : undefined;
    return json;
  }

  /** Maps one Message to chat messages; cached per message object (the history is append-only). */
  private mapMessage(message: Message): Mapped {
    const cached = this.cache.get(message);
    if (cached) return cached;
    const messages: ChatMessage[] = [];
    if (message.sender === "agent") {
      // Extras go back verbatim, but only to the provider that produced them (or when the message
      // predates Message.provider): Gemini refuses a tool loop whose signature was dropped, a
      // strict server refuses a field it does not know.
      const own = message.provider === undefined || message.provider === this.provider;
      const m = withMessageExtras(own ? message.provider_extras : undefined, message.text || null);
      if (message.tool_calls?.length) {
        m.tool_calls = message.tool_calls.map((call, i) =>
          withExtras(
            own ? call.provider_extras : undefined,
            call.id ?? `call_${i}`,
            call.tool_name,
            argsString(call.input_args),
          ),
        );
        if (this.echo && message.reasoning_content) m.reasoning_content = message.reasoning_content;
      }
      if (m.content === null && !m.tool_calls) m.content = "";
      messages.push(m);
    } else {
      for (const r of message.tool_results ?? []) {
        messages.push({ role: "tool", tool_call_id: r.call_id ?? r.tool_name, content: toolResultContent(r.result) });
      }
      const parts = userParts(message);
      if (parts.length || !message.tool_results?.length) {
        const onlyText = parts.every((p) => p.type === "text");
        messages.push({
          role: "user",
          content: onlyText ? mapPacked(parts, (p) => p.text ?? "").join("\n") : mapPacked(parts, toChatPart),
        });
      }
    }
    const mapped = { messages, json: mapPacked(messages, (m) => JSON.stringify(m)) };
    this.cache.set(message, mapped);
    return mapped;
  }

  /** Appends the history's chat messages as JSON to `out`; returns the last role. */
  private appendMessages(history: Message[], out: string[]): string {
    // Fast path: no two consecutive chat messages share a user/assistant role.
    let previousRole = "";
    let needsMerge = false;
    for (const message of history) {
      const mapped = this.mapMessage(message);
      for (const m of mapped.messages) {
        if (m.role === previousRole && m.role !== "tool") needsMerge = true;
        previousRole = m.role;
      }
    }
    if (!needsMerge) {
      for (const message of history) for (const json of this.mapMessage(message).json) out.push(json);
      return previousRole;
    }
    const all = history.flatMap((message) => this.mapMessage(message).messages);
    const merged = mergeConsecutive(all, (a) => a.role === "user" || a.role === "assistant", mergeChatMessages);
    for (const m of merged) out.push(JSON.stringify(m));
    return merged[merged.length - 1]?.role ?? "";
  }
}

/** Two consecutive same-role chat messages as one, keeping every part, call and reasoning. */
function mergeChatMessages(a: ChatMessage, b: ChatMessage): ChatMessage {
  if (a.role === "user") {
    const content = [...asParts(a.content), ...asParts(b.content)];
    return { role: "user", content };
  }
  const text = [a.content, b.content].filter((c) => typeof c === "string" && c).join("\n");
  const m = withMessageExtras(mergedExtras(a, b), text || null);
  const calls = [...(a.tool_calls ?? []), ...(b.tool_calls ?? [])];
  if (calls.length) m.tool_calls = calls;
  const reasoning = [a.reasoning_content, b.reasoning_content].filter(Boolean).join("\n");
  if (reasoning) m.reasoning_content = reasoning;
  if (m.content === null && !m.tool_calls) m.content = "";
  return m;
}

function asParts(content: ChatContent): Array<Record<string, unknown>> {
  if (content === null || content === "") return [];
  return typeof content === "string" ? [{ type: "text", text: content }] : content;
}

/** The fields of an assistant message the adapter writes itself, as opposed to a provider's extras. */
const OWN = new Set(["role", "content", "tool_calls", "tool_call_id", "reasoning_content"]);

/** An assistant message with its extras restored; the adapter's own fields are set after and win. */
function withMessageExtras(extras: Record<string, unknown> | undefined, content: ChatContent): ChatMessage {
  const m: ChatMessage = { role: "assistant", content };
  if (extras) for (const [key, value] of Object.entries(extras)) if (!OWN.has(key)) setField(m, key, value);
  return m;
}

/** The extras of two assistant messages sent as one: both kept, lists one after the other. */
function mergedExtras(a: ChatMessage, b: ChatMessage): Record<string, unknown> | undefined {
  const pick = (m: ChatMessage) => Object.fromEntries(Object.entries(m).filter(([key]) => !OWN.has(key)));
  const [x, y] = [pick(a), pick(b)];
  if (!Object.keys(x).length && !Object.keys(y).length) return undefined;
  // Two messages' details are distinct even when their indexes match: lists append, never join.
  return mergeMessageExtras(mergeMessageExtras({}, x, false), y, false);
}
