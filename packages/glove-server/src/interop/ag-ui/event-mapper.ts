import type { ToolResultData, WireSlot } from "glove-core";
import type { NativeEvent } from "../shared/native-events.js";
import type { AgUiEvent, AgUiMessage } from "./events.js";
import { toolResultContent } from "./messages.js";

/** Makes the ids of messages this mapper opens (random in the server, counted in tests). */
export type IdSource = () => string;

/**
 * Glove's events as AG-UI events, for the content of a run: streamed text as text messages (one
 * per model response, closed before its tool calls), tool calls as start/args/end with their
 * results, display-only slots as activity messages, tasks and inbox as state deltas. Events a
 * subagent emitted (`agentPath`) stay inside its tool call and are not mapped. The run's own
 * start and end (and questions, which end it) are the run stream's part.
 */
export class AgUiEventMapper {
  #messageId: string | undefined;
  #textOpen = false;
  /** The message the current model response's tool calls hang on. */
  #parentId: string | undefined;
  /** The first message id the current model response streamed under (its text, or its calls' parent). */
  #responseId: string | undefined;
  /** Ids of finished model responses, in order, until `takeResponseId` claims them. */
  readonly #responseIds: Array<string | undefined> = [];
  /**
   * The tool results this run streamed, by call id: a run that stops on a question closes with a
   * history snapshot, where a parallel call's result may not be stored yet (results are stored
   * together, once every call of the response has one) — the snapshot keeps them (messages.ts).
   */
  readonly streamedResults = new Map<string, Extract<AgUiMessage, { role: "tool" }>>();

  constructor(private readonly ids: IdSource) {}

  map(event: NativeEvent): AgUiEvent[] {
    const { type, data } = event;
    if (data.agentPath !== undefined) return [];
    switch (type) {
      case "text_delta":
        return this.text(typeof data.text === "string" ? data.text : "");
      case "tool_use":
        return this.#toolUse(String(data.id ?? ""), String(data.name ?? "tool"), data.input);
      case "tool_use_result":
        return this.#toolResult(data.call_id, data.result as ToolResultData | undefined);
      case "model_response":
      case "model_response_complete": {
        const closed = this.close();
        this.#responseIds.push(this.#responseId);
        this.#responseId = undefined;
        this.#parentId = undefined;
        this.#messageId = undefined;
        return closed;
      }
      case "slot_push":
        return this.#displayed(data.slot as WireSlot | undefined);
      case "tasks":
        return [
          {
            type: "STATE_DELTA",
            delta: [{ op: "add", path: "/tasks", value: Array.isArray(data.tasks) ? data.tasks : [] }],
          },
        ];
      case "inbox":
        return [
          {
            type: "STATE_DELTA",
            delta: [{ op: "add", path: "/inbox", value: Array.isArray(data.items) ? data.items : [] }],
          },
        ];
      default:
        return [];
    }
  }

  /** Streamed text of the current model response (also the text a snapshot says is in flight). */
  text(delta: string): AgUiEvent[] {
    if (delta === "") return [];
    const out: AgUiEvent[] = [];
    if (!this.#textOpen) {
      this.#messageId ??= this.ids();
      this.#responseId ??= this.#messageId;
      this.#textOpen = true;
      out.push({ type: "TEXT_MESSAGE_START", messageId: this.#messageId, role: "assistant" });
    }
    out.push({ type: "TEXT_MESSAGE_CONTENT", messageId: this.#messageId!, delta });
    return out;
  }

  /**
   * The id the next finished model response streamed under, once: the stored agent message of that
   * response (`messages_appended` follows the response) takes it in snapshots, so a client that
   * keeps what it streamed sees one message, not two.
   */
  takeResponseId(): string | undefined {
    return this.#responseIds.shift();
  }

  /** Ends an open text message (at a model response's end, before a tool call, or when the run ends). */
  close(): AgUiEvent[] {
    if (!this.#textOpen) return [];
    this.#textOpen = false;
    return [{ type: "TEXT_MESSAGE_END", messageId: this.#messageId! }];
  }

  /** Ends an open text message so that text after this point is a new message, after what comes between. */
  #breakText(): AgUiEvent[] {
    const out = this.close();
    if (out.length > 0) this.#messageId = undefined;
    return out;
  }

  #toolUse(toolCallId: string, toolCallName: string, input: unknown): AgUiEvent[] {
    if (toolCallId === "") return [];
    const out = this.close();
    if (this.#parentId === undefined) {
      // The response's calls hang on its message: its text, or an empty message opened for them,
      // so that clients building one message per TEXT_MESSAGE_START (assistant-ui) see the same
      // messages as the snapshot does.
      this.#parentId = this.#messageId;
      if (this.#parentId === undefined) {
        this.#parentId = this.ids();
        out.push(
          { type: "TEXT_MESSAGE_START", messageId: this.#parentId, role: "assistant" },
          { type: "TEXT_MESSAGE_END", messageId: this.#parentId },
        );
      }
    }
    const parentMessageId = this.#parentId;
    this.#responseId ??= parentMessageId;
    // A text message after this call (same response) is a new one, after the call in the list.
    this.#messageId = undefined;
    out.push(
      { type: "TOOL_CALL_START", toolCallId, toolCallName, parentMessageId },
      { type: "TOOL_CALL_ARGS", toolCallId, delta: JSON.stringify(input ?? {}) },
      { type: "TOOL_CALL_END", toolCallId },
    );
    return out;
  }

  #toolResult(callId: unknown, result: ToolResultData | undefined): AgUiEvent[] {
    if (typeof callId !== "string" || callId === "" || !result) return [];
    const message = {
      id: this.ids(),
      role: "tool" as const,
      toolCallId: callId,
      content: toolResultContent(result),
      ...(result.status === "success" ? {} : { error: result.status }),
    };
    this.streamedResults.set(callId, message);
    return [
      ...this.#breakText(),
      { type: "TOOL_CALL_RESULT", messageId: message.id, toolCallId: callId, content: message.content, role: "tool" },
    ];
  }

  /** A slot shown without waiting (a card, a chart): an activity message the page may draw. */
  #displayed(slot: WireSlot | undefined): AgUiEvent[] {
    if (!slot || slot.mode !== "forget") return [];
    const content: Record<string, unknown> = { renderer: slot.renderer, input: slot.input ?? null };
    if (slot.toolCallId !== null) content.toolCallId = slot.toolCallId;
    if (slot.toolName !== null) content.toolName = slot.toolName;
    return [
      ...this.#breakText(),
      { type: "ACTIVITY_SNAPSHOT", messageId: slot.id, activityType: slot.renderer, content },
    ];
  }
}
