import type { UIMessageChunk } from "ai";
import type { ToolCall, ToolResultData, WireSlot } from "glove-core";
import { PERMISSION_REQUEST_RENDERER } from "glove-core/display-manager";
import type { TurnStatus, WireEvent } from "../types/wire.js";

/** What one Glove event became: the chunks, and whether the reply pauses for a person. */
export interface MappedEvent {
  chunks: UIMessageChunk[];
  /** The turn waits for an answer (a permission prompt or another question): the response ends here. */
  paused: boolean;
}

/** The data part a question other than a permission prompt arrives as (`data-glove-slot`). */
export const SLOT_DATA_PART = "data-glove-slot";

const ERRORS: Record<Exclude<TurnStatus, "done" | "waiting" | "aborted">, string> = {
  error: "The agent's turn failed.",
  interrupted: "The server stopped while the agent was answering (the turn was interrupted).",
};

/**
 * Turns Glove's wire events for one turn into the AI SDK's UI message chunks, as `streamText`'s
 * `toUIMessageStream` would write them: a step per model call (its text and tool inputs, then the
 * results of its tools), `tool-approval-request` for a permission prompt, `finish`, `abort` or
 * `error` when the turn ends. Subagents' events stay inside their tool call and are not shown.
 * Stateful per response; one mapper per stream.
 */
export class ChunkMapper {
  readonly #prefix: string;
  #stepOpen = false;
  /** The model call of the open step has completed; the next model output starts a new step. */
  #responded = false;
  #textId: string | undefined;
  #texts = 0;
  /** Text streamed by the model call in progress (a non-streaming adapter sends it whole at the end). */
  #streamed = "";
  readonly #calls = new Set<string>();
  readonly #declined = new Set<string>();

  /** `prefix` makes text part ids unique within the message (e.g. the turn id). */
  constructor(prefix: string, knownCalls: Iterable<string> = []) {
    this.#prefix = prefix;
    for (const id of knownCalls) this.#calls.add(id);
  }

  /** The response's first chunk; `messageId` names the assistant message (replays reuse the stored one). */
  start(messageId?: string): UIMessageChunk[] {
    return [messageId === undefined ? { type: "start" } : { type: "start", messageId }];
  }

  /** A call whose permission the page declined: its refusal is shown as denied, not as an error. */
  declined(toolCallId: string): void {
    this.#declined.add(toolCallId);
  }

  event(event: WireEvent): MappedEvent {
    const out: UIMessageChunk[] = [];
    // A subagent's events belong to its call (glove_invoke_subagent's part shows its result).
    if ("agentPath" in event && event.agentPath && event.agentPath.length > 0) return { chunks: out, paused: false };
    switch (event.type) {
      case "text_delta":
        this.#modelOutput(out);
        this.#text(out, event.text);
        this.#streamed += event.text;
        break;
      case "tool_use":
        this.#modelOutput(out);
        this.#closeText(out);
        this.#toolInput(out, event.id, event.name, event.input);
        break;
      case "model_response":
      case "model_response_complete":
        this.#responseComplete(out, event.text, event.tool_calls);
        break;
      case "tool_use_result":
        if (event.call_id !== undefined) this.#toolOutput(out, event.call_id, event.result);
        break;
      case "slot_push":
        return this.#slot(out, event.slot);
      case "turn_end":
        out.push(...this.end(event.status, event.error?.message));
        break;
      default:
        break;
    }
    return { chunks: out, paused: false };
  }

  /** The last chunks of a response: the open step closes, then `finish`, `abort` or `error`. */
  end(status: TurnStatus | "paused", message?: string): UIMessageChunk[] {
    const out: UIMessageChunk[] = [];
    this.#closeStep(out);
    if (status === "done" || status === "waiting") out.push({ type: "finish", finishReason: "stop" });
    else if (status === "paused") out.push({ type: "finish", finishReason: "tool-calls" });
    else if (status === "aborted") out.push({ type: "abort", reason: message ?? "The turn was stopped." });
    else out.push({ type: "error", errorText: message ?? ERRORS[status] });
    return out;
  }

  #modelOutput(out: UIMessageChunk[]): void {
    if (this.#responded) {
      this.#closeStep(out);
      this.#responded = false;
    }
    if (!this.#stepOpen) {
      out.push({ type: "start-step" });
      this.#stepOpen = true;
    }
  }

  #text(out: UIMessageChunk[], delta: string): void {
    if (delta === "") return;
    if (this.#textId === undefined) {
      this.#textId = `${this.#prefix}:text:${++this.#texts}`;
      out.push({ type: "text-start", id: this.#textId });
    }
    out.push({ type: "text-delta", id: this.#textId, delta });
  }

  #closeText(out: UIMessageChunk[]): void {
    if (this.#textId === undefined) return;
    out.push({ type: "text-end", id: this.#textId });
    this.#textId = undefined;
  }

  #closeStep(out: UIMessageChunk[]): void {
    this.#closeText(out);
    if (this.#stepOpen) out.push({ type: "finish-step" });
    this.#stepOpen = false;
  }

  #responseComplete(out: UIMessageChunk[], text: string, calls: ToolCall[] | undefined): void {
    this.#modelOutput(out);
    // What streamed already is the response's text; an adapter that did not stream sends it here.
    if (this.#streamed === "" && text !== "") this.#text(out, text);
    this.#closeText(out);
    for (const call of calls ?? [])
      if (call.id !== undefined) this.#toolInput(out, call.id, call.tool_name, call.input_args);
    this.#streamed = "";
    this.#responded = true;
  }

  #toolInput(out: UIMessageChunk[], toolCallId: string, toolName: string, input: unknown): void {
    if (this.#calls.has(toolCallId)) return;
    this.#calls.add(toolCallId);
    out.push({ type: "tool-input-available", toolCallId, toolName, input: input ?? {} });
  }

  #toolOutput(out: UIMessageChunk[], toolCallId: string, result: ToolResultData): void {
    // The page's message has no part for a call it never saw: the AI SDK would refuse the chunk.
    if (!this.#calls.has(toolCallId)) return;
    if (result.status === "success")
      out.push({ type: "tool-output-available", toolCallId, output: result.data ?? null });
    else if (this.#declined.has(toolCallId)) out.push({ type: "tool-output-denied", toolCallId });
    else
      out.push({
        type: "tool-output-error",
        toolCallId,
        errorText: result.message ?? errorText(result.data, result.status),
      });
  }

  /** Several waiting questions at once (pushed while nobody read the stream), then the pause. */
  questions(slots: readonly WireSlot[]): UIMessageChunk[] {
    const out: UIMessageChunk[] = [];
    for (const slot of slots) if (slot.mode === "wait" && slot.status === "pending") this.#ask(out, slot);
    out.push(...this.end("paused"));
    return out;
  }

  #slot(out: UIMessageChunk[], slot: WireSlot): MappedEvent {
    if (slot.mode !== "wait" || slot.status !== "pending") return { chunks: out, paused: false };
    this.#ask(out, slot);
    out.push(...this.end("paused"));
    return { chunks: out, paused: true };
  }

  #ask(out: UIMessageChunk[], slot: WireSlot): void {
    const prompt =
      slot.renderer === PERMISSION_REQUEST_RENDERER
        ? (slot.input as { tool_name?: unknown; input?: unknown } | null)
        : null;
    if (prompt && slot.toolCallId) {
      this.#toolInput(out, slot.toolCallId, slot.toolName ?? String(prompt.tool_name), prompt.input);
      out.push({ type: "tool-approval-request", approvalId: slot.id, toolCallId: slot.toolCallId });
    } else {
      out.push({ type: SLOT_DATA_PART, id: slot.id, data: slot });
    }
  }
}

function errorText(data: unknown, status: string): string {
  if (typeof data === "string" && data !== "") return data;
  return status === "aborted" ? "The tool call was stopped." : "The tool failed.";
}
