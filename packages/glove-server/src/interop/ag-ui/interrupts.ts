import { PERMISSION_REQUEST_RENDERER, type WireSlot } from "glove-core";
import { badRequest, quoted } from "../../errors.js";
import type { SlotAnswer } from "../../conversations/conversation-handle.js";
import type { AgUiInterrupt } from "./events.js";

/** What a permission prompt's interrupt expects back: AG-UI's tool-approval shape. */
export const APPROVAL_SCHEMA = {
  type: "object",
  properties: { approved: { type: "boolean" }, reason: { type: "string" } },
  required: ["approved"],
} as const;

/** A resume entry of RunAgentInput, as parsed (see run-input.ts). */
export interface ResumeEntry {
  interruptId: string;
  status: "resolved" | "cancelled";
  payload?: unknown;
}

interface PermissionInput {
  tool_name?: unknown;
  call_id?: unknown;
}

const isPermission = (slot: WireSlot) => slot.renderer === PERMISSION_REQUEST_RENDERER;

/**
 * A Glove question (a slot a tool waits on) as an AG-UI interrupt with the slot's id. A
 * permission prompt is a tool approval (`reason: "tool_call"`, `{ approved }` back); any other
 * question is `input_required`, its renderer and props in `metadata` for the page to draw.
 */
export function slotToInterrupt(slot: WireSlot): AgUiInterrupt {
  const metadata: Record<string, unknown> = { renderer: slot.renderer, input: slot.input ?? null };
  if (slot.toolName !== null) metadata.toolName = slot.toolName;
  if (slot.origin) metadata.origin = slot.origin;
  if (isPermission(slot)) {
    const input = (slot.input ?? {}) as PermissionInput;
    const toolName = typeof input.tool_name === "string" ? input.tool_name : (slot.toolName ?? "a tool");
    const callId = typeof input.call_id === "string" ? input.call_id : slot.toolCallId;
    return {
      id: slot.id,
      reason: "tool_call",
      message: `Allow ${toolName} to run?`,
      ...(callId ? { toolCallId: callId } : {}),
      responseSchema: structuredClone(APPROVAL_SCHEMA) as Record<string, unknown>,
      metadata,
    };
  }
  return {
    id: slot.id,
    reason: "input_required",
    message: `${slot.toolName ?? "The agent"} waits for your answer (${slot.renderer}).`,
    ...(slot.toolCallId ? { toolCallId: slot.toolCallId } : {}),
    metadata,
  };
}

/** The questions in a snapshot's slot list that still wait for a person. */
export function waitingSlots(slots: unknown): WireSlot[] {
  if (!Array.isArray(slots)) return [];
  return (slots as WireSlot[]).filter((slot) => slot.mode === "wait" && slot.status === "pending");
}

/**
 * A resume entry as the answer Glove's slot takes: `cancelled` rejects the question; a resolved
 * permission prompt takes `{ approved: boolean }` (or a bare boolean); other questions take the
 * payload as their answer, checked against the tool's schema when it is applied.
 */
export function resumeToAnswer(entry: ResumeEntry, slot: WireSlot, index: number): SlotAnswer {
  if (entry.status === "cancelled") return { reject: "The user cancelled the question." };
  if (!isPermission(slot)) return { resolve: entry.payload ?? null };
  const payload = entry.payload;
  const approved =
    typeof payload === "boolean" ? payload : (payload as { approved?: unknown } | null | undefined)?.approved;
  if (typeof approved !== "boolean") {
    throw badRequest(
      `resume[${index}] answers the permission prompt ${quoted(slot.id)}: send payload { approved: true } or { approved: false }.`,
      [{ path: `resume.${index}.payload.approved`, message: "must be a boolean" }],
    );
  }
  return { resolve: approved };
}
