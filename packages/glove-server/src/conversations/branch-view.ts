import {
  branchPoints,
  GloveError,
  storeKeepsBranches,
  type BranchPoint,
  type IGloveRunnable,
  type Message,
  type StoreAdapter,
} from "glove-core";
import { HttpError } from "../errors.js";
import type { BranchOp } from "./conversation-handle.js";

/** The branch points of `messages` (the active branch as just read); none when the store keeps no branches. */
export async function branchPointsOf(store: StoreAdapter, messages: Message[]): Promise<BranchPoint[]> {
  return storeKeepsBranches(store) ? branchPoints(messages, await store.getBranches()) : [];
}

/** The Glove's branch operations, or a 501 when its agent or store has none. */
export function branching(glove: IGloveRunnable): Required<Pick<IGloveRunnable, "branches" | "switchBranch">> {
  const { branches, switchBranch } = glove;
  if (!branches || !switchBranch || !storeKeepsBranches(glove.store)) {
    throw new HttpError(
      501,
      "GLOVE_NOT_SUPPORTED",
      "This conversation's store keeps no branches (it has no getBranches/rewriteBranches), so it cannot regenerate, edit or switch.",
    );
  }
  return { branches: () => branches.call(glove), switchBranch: (id) => switchBranch.call(glove, id) };
}

/** The `branches_changed` event clients follow: keep the first `keep` messages, then `messages`; the new branch points. */
export async function branchesChangedEvent(
  store: StoreAdapter,
  keep: number,
  messages: Message[],
): Promise<{ keep: number; messages: Message[]; points: BranchPoint[] }> {
  return { keep, messages, points: await branchPointsOf(store, await store.getMessages()) };
}

/** A branch turn's work: glove-core sets the old branch aside (the store reports it) and runs the turn. */
export async function runBranchOp(glove: IGloveRunnable, op: BranchOp, signal: AbortSignal): Promise<void> {
  if (!glove.regenerate || !glove.editMessage)
    throw new GloveError("This agent cannot regenerate or edit (its Glove has no regenerate/editMessage).", {
      code: "GLOVE_NOT_SUPPORTED",
    });
  if (op.kind === "regenerate") await glove.regenerate(signal);
  else await glove.editMessage(op.messageId, op.text, signal);
}
