/**
 * The conversation's tree, worked out from what a store keeps (decision 0025): the active branch
 * plus the stretches set aside from it, each hanging off the message it follows. Pure functions:
 * every store keeps the same two lists and every host reads them the same way.
 */
import type { BranchPoint, BranchRewrite, BranchSibling, Message, StoredBranch } from "../types/index.js";
import { BranchError } from "./branch-error.js";

/** The id a stretch starting at `at` on the active branch would record as its parent. */
export function parentAt(active: readonly Message[], at: number): string | null {
  return at === 0 ? null : (active[at - 1]?.id ?? null);
}

/** The rewrite that sets aside the active messages from `at` on and appends `append` after the rest. */
export function forkAt(active: readonly Message[], at: number, append: Message[], newId: () => string): BranchRewrite {
  const rest = active.slice(at);
  const add: StoredBranch[] =
    rest.length > 0 ? [{ id: newId(), at, parentId: parentAt(active, at), messages: [...rest] }] : [];
  return { expected: expectedOf(active), keep: at, remove: [], add, append };
}

/** What a rewrite planned from `active` expects the store to still hold. */
export function expectedOf(active: readonly Message[]): BranchRewrite["expected"] {
  return { count: active.length, lastId: active.at(-1)?.id ?? null };
}

function sibling(message: Message): BranchSibling {
  return { id: message.id ?? "", sender: message.sender, text: message.text };
}

/** Ids sort oldest first (Glove's message ids start with the time); stable whatever is active. */
function byId(a: BranchSibling, b: BranchSibling): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The positions of the active branch that have alternatives, with every alternative. */
export function branchPoints(active: readonly Message[], stored: readonly StoredBranch[]): BranchPoint[] {
  const byPosition = new Map<number, StoredBranch[]>();
  for (const stretch of stored) {
    if (stretch.at > active.length || stretch.parentId !== parentAt(active, stretch.at)) continue;
    byPosition.set(stretch.at, [...(byPosition.get(stretch.at) ?? []), stretch]);
  }
  const points: BranchPoint[] = [];
  for (const [index, stretches] of [...byPosition].sort(([a], [b]) => a - b)) {
    const current = active[index];
    const others = stretches.map((stretch) => sibling(stretch.messages[0]!));
    // A branch that ends where a stretch starts (a regenerate not run yet) has no message there.
    const siblings = (current ? [...others, sibling(current)] : others).sort(byId);
    const activeId = current?.id ?? "";
    points.push({
      index,
      messageId: activeId,
      siblings,
      active: current ? siblings.findIndex((s) => s.id === activeId) : -1,
    });
  }
  return points;
}

/** Where a message lives: the stretch holding it and its offset there. */
function locate(
  stored: readonly StoredBranch[],
  messageId: string,
): { stretch: StoredBranch; offset: number } | undefined {
  for (const stretch of stored) {
    const offset = stretch.messages.findIndex((message) => message.id === messageId);
    if (offset >= 0) return { stretch, offset };
  }
  return undefined;
}

/**
 * The rewrite that makes the branch through `messageId` active: its stretches come back, each cut
 * where the next one hangs off it (the rest of a cut stretch is set aside again), and the active
 * messages past the common part are set aside. Undefined when the message is already active;
 * "missing" when the conversation has no such message.
 */
export function planSwitch(
  active: readonly Message[],
  stored: readonly StoredBranch[],
  messageId: string,
  newId: () => string,
): BranchRewrite | "missing" | undefined {
  if (active.some((message) => message.id === messageId)) return undefined;
  const found = locate(stored, messageId);
  if (!found) return "missing";
  const chain: StoredBranch[] = [found.stretch];
  let base: number;
  for (;;) {
    const head = chain[0]!;
    if (head.at <= active.length && head.parentId === parentAt(active, head.at)) {
      base = head.at;
      break;
    }
    const parent = head.parentId === null ? undefined : locate(stored, head.parentId);
    // A stretch whose parent is nowhere: the store lost part of the tree; nothing sensible to switch to.
    if (!parent || chain.includes(parent.stretch)) return "missing";
    chain.unshift(parent.stretch);
  }
  const add: StoredBranch[] = [];
  const append: Message[] = [];
  if (active.length > base)
    add.push({ id: newId(), at: base, parentId: parentAt(active, base), messages: active.slice(base) });
  chain.forEach((stretch, i) => {
    const next = chain[i + 1];
    if (!next) return void append.push(...stretch.messages);
    const cut = next.at - stretch.at;
    append.push(...stretch.messages.slice(0, cut));
    const rest = stretch.messages.slice(cut);
    if (rest.length > 0) add.push({ id: newId(), at: next.at, parentId: next.parentId, messages: rest });
  });
  return { expected: expectedOf(active), keep: base, remove: chain.map((stretch) => stretch.id), add, append };
}

/** A user message that starts a turn: what regenerate re-runs from and what edit may replace. */
export function startsTurn(message: Message | undefined): boolean {
  if (!message || message.sender !== "user") return false;
  if ((message.tool_results?.length ?? 0) > 0) return false;
  return (
    message.is_compaction !== true && message.is_compaction_request !== true && message.is_skill_injection !== true
  );
}

/** A regenerate (the last turn again) or an edit (a user message replaced). */
export type ForkOp = { kind: "regenerate" } | { kind: "edit"; messageId: string };

/**
 * Where a regenerate or an edit sets the active branch aside: after the last user message that
 * starts a turn, or at the edited message. Refused with a `BranchError`: "not_found" for an id not
 * on the active branch (another branch, another conversation), "invalid" for a message that is
 * not the user's, or when there is nothing to regenerate.
 */
export function forkPoint(active: readonly Message[], op: ForkOp): number {
  if (op.kind === "regenerate") {
    let at = active.length - 1;
    while (at >= 0 && !startsTurn(active[at])) at--;
    if (at < 0)
      throw new BranchError("invalid", "There is nothing to regenerate: the conversation has no user message yet.");
    return at + 1;
  }
  const at = active.findIndex((message) => message.id === op.messageId);
  if (at < 0)
    throw new BranchError(
      "not_found",
      `No message "${op.messageId}" on this conversation's active branch.`,
      op.messageId,
    );
  if (!startsTurn(active[at]))
    throw new BranchError(
      "invalid",
      `Message "${op.messageId}" is not a user's message; only those can be edited.`,
      op.messageId,
    );
  return at;
}
