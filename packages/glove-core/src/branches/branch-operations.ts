/**
 * Regenerate, edit and switch on a store that keeps branches (decision 0025). Each reads the
 * active branch and the stored stretches, plans one `BranchRewrite` and has the store apply it
 * atomically; a rewrite that lost to another writer is a `BranchError` "conflict" and changes
 * nothing. The caller runs the turn that follows (regenerate, edit) in the same queue slot.
 */
import type { BranchInfo, BranchRewrite, Message, StoreAdapter, StoredBranch } from "../types/index.js";
import { ConfigurationError } from "../errors.js";
import type { Context } from "../runtime/context.js";
import { BranchError } from "./branch-error.js";
import { branchPoints, forkAt, forkPoint, planSwitch } from "./branch-tree.js";

/** A store with both branch methods. */
export type BranchStore = StoreAdapter & Required<Pick<StoreAdapter, "getBranches" | "rewriteBranches">>;

/** What an operation needs from the Glove it runs in. */
export interface BranchScope {
  store: StoreAdapter;
  /** The Glove's cached model view, forgotten after a rewrite; none outside a Glove. */
  context?: Context | undefined;
  /** True while a stored question waits for a person. */
  waiting(): Promise<boolean>;
}

/** True when the store records branches (both `getBranches` and `rewriteBranches`). */
export function storeKeepsBranches(store: StoreAdapter): store is BranchStore {
  return typeof store.getBranches === "function" && typeof store.rewriteBranches === "function";
}

function requireBranches(store: StoreAdapter, operation: string): BranchStore {
  if (storeKeepsBranches(store)) return store;
  throw new ConfigurationError(
    `Glove.${operation}() needs a store that keeps branches; store "${store.identifier}" has no getBranches/rewriteBranches.`,
  );
}

async function read(store: BranchStore): Promise<{ active: Message[]; stored: StoredBranch[] }> {
  const [active, stored] = await Promise.all([store.getMessages(), store.getBranches()]);
  return { active, stored };
}

async function refuseWhileWaiting(scope: BranchScope, operation: string): Promise<void> {
  if (await scope.waiting()) {
    throw new BranchError(
      "waiting",
      `Cannot ${operation} while a question waits for a person: answer it, or abort the turn to withdraw it, first.`,
    );
  }
}

async function apply(scope: BranchScope, store: BranchStore, change: BranchRewrite): Promise<void> {
  const { won } = await store.rewriteBranches(change);
  // The model's cached view is of the old branch, whoever won.
  scope.context?.invalidate();
  if (!won)
    throw new BranchError(
      "conflict",
      "The conversation's branches changed while this one was being made (another tab or process won); nothing was changed. Reload and try again.",
    );
}

const newBranchId = () => `branch_${crypto.randomUUID()}`;

/** The active branch and its branch points. */
export async function branchInfo(store: StoreAdapter): Promise<BranchInfo> {
  const { active, stored } = await read(requireBranches(store, "branches"));
  return { messages: active, points: branchPoints(active, stored) };
}

/** Sets the last turn's answer aside: the active branch then ends with its user message, ready to be answered again. */
export async function forkForRegenerate(scope: BranchScope): Promise<void> {
  const store = requireBranches(scope.store, "regenerate");
  await refuseWhileWaiting(scope, "regenerate");
  const { active } = await read(store);
  await apply(scope, store, forkAt(active, forkPoint(active, { kind: "regenerate" }), [], newBranchId));
}

/** Sets the user message `messageId` and everything after it aside, so the edited text is appended in its place. */
export async function forkForEdit(scope: BranchScope, messageId: string): Promise<void> {
  const store = requireBranches(scope.store, "editMessage");
  const { active } = await read(store);
  const at = forkPoint(active, { kind: "edit", messageId });
  await refuseWhileWaiting(scope, "edit a message");
  await apply(scope, store, forkAt(active, at, [], newBranchId));
}

/** Makes the branch through `messageId` active (a no-op when it already is). */
export async function switchTo(scope: BranchScope, messageId: string): Promise<BranchInfo> {
  const store = requireBranches(scope.store, "switchBranch");
  const { active, stored } = await read(store);
  const plan = planSwitch(active, stored, messageId, newBranchId);
  if (plan === "missing")
    throw new BranchError("not_found", `No message "${messageId}" in this conversation.`, messageId);
  if (plan === undefined) return { messages: active, points: branchPoints(active, stored) };
  await refuseWhileWaiting(scope, "switch branches");
  await apply(scope, store, plan);
  return branchInfo(store);
}

/**
 * Makes the branch through `messageId` active on a store, outside any Glove (a host holding the
 * conversation checks first that no turn runs and no question waits).
 */
export function switchStoreBranch(store: StoreAdapter, messageId: string): Promise<BranchInfo> {
  return switchTo({ store, waiting: async () => false }, messageId);
}
