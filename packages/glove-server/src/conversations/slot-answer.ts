import type { DisplayManagerAdapter, SlotBoard } from "glove-core";
import { badRequest, conflict, notFound, quoted } from "../errors.js";
import type { SlotAnswer } from "./conversation-handle.js";

/**
 * Applies a client's answer to a waiting slot: 404 for unknown or display-only slots, 409 once
 * answered (the first answer wins), 400 with the issues when the answer fails the schema (the
 * slot keeps waiting). Shared by the single-process server and the scale mode's turn worker.
 */
export function applySlotAnswer(
  slots: SlotBoard,
  display: DisplayManagerAdapter,
  slotId: string,
  answer: SlotAnswer,
): { slotId: string; status: "resolved" | "rejected" } {
  const resolving = "resolve" in answer;
  const slot = slots.get(slotId);
  if (!slot || slot.mode !== "wait")
    throw notFound(`No slot ${quoted(slotId)} waits for an answer in this conversation.`);
  if (slot.status !== "pending")
    throw conflict("GLOVE_SLOT_SETTLED", `Slot ${slotId} is already ${slot.status}; the first answer won.`);
  if (resolving && display.checkAnswer) {
    // Checked here to answer 400 while the slot keeps waiting; the manager parses the raw value
    // itself on resolve (passing the parsed value would parse a transforming schema twice).
    const checked = display.checkAnswer(slotId, answer.resolve);
    if (!checked.ok) {
      if (checked.reason === "unknown_slot") throw conflict("GLOVE_SLOT_SETTLED", checked.message);
      throw badRequest(`${checked.message} The slot keeps waiting for a valid answer.`, checked.issues);
    }
  }
  if (!slots.claim(slotId, resolving ? "resolved" : "rejected")) {
    throw conflict("GLOVE_SLOT_SETTLED", `Slot ${slotId} was answered by another client first.`);
  }
  if (resolving) display.resolve(slotId, answer.resolve);
  else display.reject(slotId, typeof answer.reject === "string" ? answer.reject : "rejected by the user");
  return { slotId, status: resolving ? "resolved" : "rejected" };
}
