/**
 * What a store that repairs interrupted turns does around an append, decided once for every store
 * (docs/decisions/0006 and 0020): the `aborted` results written before the batch when it moves on
 * from unanswered tool calls, and the refusal of results for calls the stored history already
 * answers. The plan is a generator of the stored message ranges it needs, so SQLite (synchronous,
 * in its transaction), PostgreSQL (asynchronous, under the row lock) and MemoryStore (its array)
 * read the same ranges and decide the same way.
 */
import type { Message } from "../types/index.js";
import {
  answeredCallIds,
  currentTurnStart,
  needsTurnWindow,
  repairForInterruptedTools,
  unexpectedToolResults,
} from "./message-integrity.js";

/** Messages read back first when looking for the start of an interrupted turn. */
const TURN_WINDOW = 64;
/** Messages searched for an earlier answer when results arrive for calls no longer waiting. */
const ANSWER_WINDOW = 256;

/** Stored messages by position (`seq`): `from` inclusive, `to` exclusive. */
export interface MessageRange {
  from: number;
  to: number;
}

/** Where the stored conversation stands: its message count and the position of its last compaction summary. */
export interface StoredPosition {
  count: number;
  lastCompaction: number | null;
}

/**
 * What to write for a batch. When `late` is not empty nothing may be written: those results
 * answer calls the stored history (or the repair) already answers — refuse with
 * GLOVE_STORE_CONFLICT (`RecordCodec.lateResults`). Otherwise `repair`, when defined, is written
 * first, then the batch.
 */
export interface AppendPlan {
  repair: Message | undefined;
  late: string[];
}

type Reads<T> = Generator<MessageRange, T, readonly Message[]>;

function* currentTurn({ count, lastCompaction }: StoredPosition): Reads<readonly Message[]> {
  // Most appends follow a user message: one row is enough to know nothing waits.
  const tail = yield { from: count - 1, to: count };
  if (!needsTurnWindow(tail.at(-1))) return tail;
  const recent = yield { from: Math.max(0, count - TURN_WINDOW), to: count };
  if (currentTurnStart(recent) > 0 || count <= TURN_WINDOW) return recent;
  return yield { from: lastCompaction ?? 0, to: count };
}

function* plan(at: StoredPosition, incoming: readonly Message[]): Reads<AppendPlan> {
  if (incoming.length === 0 || at.count === 0) return { repair: undefined, late: [] };
  const recent = yield* currentTurn(at);
  const repair = repairForInterruptedTools(recent, incoming);
  const unexpected = unexpectedToolResults(repair ? [...recent, repair] : recent, incoming);
  if (unexpected.length === 0) return { repair, late: [] };
  const tail = yield { from: Math.max(0, at.count - ANSWER_WINDOW), to: at.count };
  // The repair written with this batch answers its calls too: a result for one of them would be a second.
  const answered = answeredCallIds(repair ? [...tail, repair] : tail);
  return { repair, late: unexpected.filter((id) => answered.has(id)) };
}

/** The plan for appending `incoming`, reading stored messages synchronously (SQLite, MemoryStore). */
export function planAppendSync(
  at: StoredPosition,
  incoming: readonly Message[],
  read: (range: MessageRange) => readonly Message[],
): AppendPlan {
  const steps = plan(at, incoming);
  let step = steps.next();
  while (!step.done) step = steps.next(read(step.value));
  return step.value;
}

/** The plan for appending `incoming`, reading stored messages asynchronously (PostgreSQL, in its transaction). */
export async function planAppend(
  at: StoredPosition,
  incoming: readonly Message[],
  read: (range: MessageRange) => Promise<readonly Message[]>,
): Promise<AppendPlan> {
  const steps = plan(at, incoming);
  let step = steps.next();
  while (!step.done) step = steps.next(await read(step.value));
  return step.value;
}
