/**
 * Branch stretches as every store keeps them (decision 0025): one row per stretch — its id,
 * position, parent message id and its messages as one JSON array — and the checks a
 * `BranchRewrite` passes before any store writes it. Shared so the three stores refuse and read
 * back exactly the same things.
 */
import type { BranchRewrite, Message, StoredBranch } from "../types/index.js";
import { decodeMessage } from "./message-integrity.js";
import type { RecordCodec } from "./record-codec.js";
import { describeValue, keyProblem } from "./store-ids.js";

/** A stretch as a row: `body` is a JSON array of its messages. */
export interface BranchRow {
  branch_id: string;
  at: number;
  parent_id: string | null;
  body: string;
}

/** A rewrite after its checks: messages as the JSON texts the store keeps. */
export interface CheckedRewrite {
  expected: { count: number; lastId: string | null };
  keep: number;
  remove: string[];
  add: BranchRow[];
  append: string[];
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function record(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new TypeError(`${what} must be an object, not ${describeValue(value)}`);
  return value as Record<string, unknown>;
}

function key(value: unknown, what: string): string {
  const problem = keyProblem(what, value);
  if (problem !== undefined) throw new TypeError(problem);
  return value as string;
}

function row(codec: RecordCodec, value: unknown, i: number): BranchRow {
  const stretch = record(value, `add[${i}]`);
  if (!isCount(stretch.at)) throw new TypeError(`add[${i}].at must be a non-negative integer`);
  if (!Array.isArray(stretch.messages) || stretch.messages.length === 0)
    throw new TypeError(`add[${i}].messages must be a non-empty array`);
  const parent = stretch.parentId === null ? null : key(stretch.parentId, `add[${i}].parentId`);
  const bodies = codec.encodeMessages(stretch.messages as Message[]);
  return {
    branch_id: key(stretch.id, `add[${i}].id`),
    at: stretch.at,
    parent_id: parent,
    body: `[${bodies.join(",")}]`,
  };
}

/**
 * The rewrite checked and encoded, or the store's GLOVE_STORE_INVALID error: nothing is written
 * for a rewrite that fails any check.
 */
export function checkBranchRewrite(
  codec: RecordCodec,
  change: BranchRewrite,
  invalid: (detail: string) => Error,
): CheckedRewrite {
  try {
    const given = record(change, "the branch rewrite");
    const expected = record(given.expected, "expected");
    if (!isCount(expected.count)) throw new TypeError("expected.count must be a non-negative integer");
    const lastId = expected.lastId === null ? null : key(expected.lastId, "expected.lastId");
    if (!isCount(given.keep) || given.keep > expected.count)
      throw new TypeError(`keep must be an integer from 0 to expected.count (${expected.count})`);
    if (!Array.isArray(given.remove) || !Array.isArray(given.add) || !Array.isArray(given.append))
      throw new TypeError("remove, add and append must be arrays");
    const remove = given.remove.map((id, i) => key(id, `remove[${i}]`));
    const add = given.add.map((stretch, i) => row(codec, stretch, i));
    const ids = new Set(add.map((stretch) => stretch.branch_id));
    if (ids.size !== add.length) throw new TypeError("the stretches in add must have distinct ids");
    return {
      expected: { count: expected.count, lastId },
      keep: given.keep,
      remove,
      add,
      append: codec.encodeMessages(given.append as Message[]),
    };
  } catch (error) {
    if (error instanceof TypeError) throw invalid(`cannot rewrite branches: ${error.message}`);
    throw error;
  }
}

/** A stored stretch from its row, or why the row is corrupt. */
export function decodeBranch(row: BranchRow): StoredBranch | { problem: string } {
  let values: unknown;
  try {
    values = JSON.parse(row.body);
  } catch {
    return { problem: "its body is not valid JSON" };
  }
  if (!Array.isArray(values) || values.length === 0) return { problem: "its body is not a non-empty JSON array" };
  const messages: Message[] = [];
  for (const value of values) {
    const decoded = decodeMessage(JSON.stringify(value));
    if ("problem" in decoded) return { problem: decoded.problem };
    messages.push(decoded.message);
  }
  if (!isCount(Number(row.at))) return { problem: `its position is ${JSON.stringify(row.at)}` };
  return { id: row.branch_id, at: Number(row.at), parentId: row.parent_id, messages };
}
