import { forkPoint, storeKeepsBranches, switchStoreBranch, type BranchInfo, type StoreAdapter } from "glove-core";
import { asHttp } from "../../conversations/branch-refusals.js";
import { branchesChangedEvent, branchPointsOf } from "../../conversations/branch-view.js";
import type { BranchOp } from "../../conversations/conversation-handle.js";
import { ObservedStore } from "../../conversations/observed-store.js";
import { waitingConflict } from "../../conversations/waiting-turns.js";
import { HttpError } from "../../errors.js";
import type { ConversationRecord } from "../../storage/types.js";
import { jobOptions, type ScaleShared, type TurnJobData } from "./scale-shared.js";
import { outOfTurn, waitingQuestions } from "./stored-answers.js";

/** What the scale mode's branch operations need from the conversation (decision 0025). */
export interface BranchContext {
  shared: ScaleShared;
  record: ConversationRecord;
  store: StoreAdapter;
  /** Claims the conversation as a turn would: the function that gives the claim back, or undefined when a turn holds it. */
  claim(turnId: string): Promise<(() => Promise<unknown>) | undefined>;
  /** The 409 while a turn holds the claim: waiting for an answer, or busy. */
  held(): Promise<HttpError>;
  /** The job that runs a turn of this conversation. */
  job(turnId: string, text: string): TurnJobData;
}

/** The conversation's store, or a 501 when it keeps no branches. */
export function branchStore(store: StoreAdapter): StoreAdapter {
  if (storeKeepsBranches(store)) return store;
  throw new HttpError(
    501,
    "GLOVE_NOT_SUPPORTED",
    "This conversation's store keeps no branches (it has no getBranches/rewriteBranches), so it cannot regenerate, edit or switch.",
  );
}

/** The active branch and its branch points, read from the store. */
export async function readBranches(store: StoreAdapter): Promise<BranchInfo> {
  const messages = await branchStore(store).getMessages();
  return { messages, points: await branchPointsOf(store, messages) };
}

/**
 * A regenerate or an edit: checked here (404/400/409 before anything is queued) while this
 * instance holds the conversation's claim, then queued as a turn that keeps the claim; its worker
 * sets the old branch aside and runs it.
 */
export async function startBranchTurn(context: BranchContext, op: BranchOp): Promise<{ turnId: string }> {
  const store = branchStore(context.store);
  const turnId = crypto.randomUUID();
  const release = await context.claim(turnId);
  if (!release) throw await context.held();
  try {
    const waiting = await waitingQuestions(store);
    if (waiting.length > 0) throw waitingConflict(waiting);
    const active = await store.getMessages();
    await asHttp(async () => forkPoint(active, op));
  } catch (error) {
    await release();
    throw error;
  }
  const job = { ...context.job(turnId, op.kind === "edit" ? op.text : ""), branch: op };
  await context.shared.queue.add("turn", job, jobOptions(turnId));
  return { turnId };
}

/** A switch holds the claim while it rewrites, so it never races a worker; every instance's readers get branches_changed. */
export async function switchBranchHere(context: BranchContext, messageId: string): Promise<BranchInfo> {
  const store = branchStore(context.store);
  const release = await context.claim(crypto.randomUUID());
  if (!release) throw await context.held();
  try {
    const waiting = await waitingQuestions(store);
    if (waiting.length > 0) throw waitingConflict(waiting);
    const events = await outOfTurn(context.shared, context.record);
    const observed = new ObservedStore(store, {
      onMessagesAppended: () => undefined,
      onTasksChanged: () => undefined,
      onInboxChanged: () => undefined,
      onBranchesChanged: async (keep, messages) =>
        void (await events.emit("branches_changed", await branchesChangedEvent(store, keep, messages), [
          String(keep + messages.length),
        ])),
    });
    return await asHttp(() => switchStoreBranch(observed.store, messageId));
  } finally {
    await release();
  }
}
