import type { Message } from "./message.js";

/**
 * A stretch of messages set aside from the active branch, as a store keeps it (decision 0025).
 * The active branch plus these stretches form the conversation's tree: each stretch hangs off
 * the message it follows.
 */
export interface StoredBranch {
  /** Unique within the conversation; a new one each time a stretch is set aside. */
  id: string;
  /** How many messages come before the stretch's first one on any branch through it. */
  at: number;
  /** The id of the message the stretch follows; null when it starts the conversation. */
  parentId: string | null;
  /** At least one message. */
  messages: Message[];
}

/**
 * One change of the active branch, applied by a store at once or not at all
 * (`StoreAdapter.rewriteBranches`): keep the first `keep` active messages, drop the stretches
 * `remove`, keep the stretches `add`, then append `append` to the active branch.
 */
export interface BranchRewrite {
  /** The active branch as the caller read it; the rewrite is refused when it has changed since. */
  expected: { count: number; lastId: string | null };
  keep: number;
  /** Ids of stored stretches brought back (or merged); refused when one is gone. */
  remove: string[];
  add: StoredBranch[];
  append: Message[];
}

/** What `rewriteBranches` answers: `won: false` when another writer changed the branches first (nothing was written). */
export interface BranchRewriteOutcome {
  won: boolean;
}

/** One alternative at a point where the conversation branches. */
export interface BranchSibling {
  /** The id of the alternative's first message; pass it to `switchBranch`. */
  id: string;
  sender: Message["sender"];
  /** The first message's text, as stored. */
  text: string;
}

/** A position of the active branch where alternatives exist (after a regenerate or an edit). */
export interface BranchPoint {
  /** Position of the active message in the active branch. */
  index: number;
  /** Id of the active message at that position. */
  messageId: string;
  /** Every alternative, oldest first; one of them is the active message. */
  siblings: BranchSibling[];
  /** Which sibling is active. */
  active: number;
}

/** The active branch with its branch points, what `Glove.branches()` answers. */
export interface BranchInfo {
  /** The active branch: what the model sees (from its last compaction summary on). */
  messages: Message[];
  /** Only the positions that have alternatives, in order. */
  points: BranchPoint[];
}
