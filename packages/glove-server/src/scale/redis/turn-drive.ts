import { AbortError, type IGloveRunnable, type Message, type StoreAdapter } from "glove-core";
import { branchesChangedEvent, runBranchOp } from "../../conversations/branch-view.js";
import { type PeopleWaits, rerunCallIds, toolsOf, waitsOnStoredQuestions } from "./people-waits.js";
import type { ScaleShared, TurnJobData } from "./scale-shared.js";
import type { TurnEmitter } from "./turn-emitter.js";

/** The fields of the conversation's Redis state that say where an earlier worker left the turn. */
export const TURN_PLACE_FIELDS = ["turnBase", "baseTurn", "messageCount", "branched"] as const;

/** Where an earlier worker left the turn, as the state hash holds it (read with the worker's first commands). */
export interface TurnPlace {
  /** The history's length when the turn started. */
  turnBase: string | null;
  /** The turn that set `turnBase`: equal to this job's, the turn was started already. */
  baseTurn: string | null;
  /** The history's length as announced to clients. */
  messageCount: string | null;
  /** The turn whose branch rewrite landed. */
  branched: string | null;
}

/** `TURN_PLACE_FIELDS`' values, in their order, as a TurnPlace. */
export function turnPlace(values: Array<string | null>): TurnPlace {
  const [turnBase = null, baseTurn = null, messageCount = null, branched = null] = values;
  return { turnBase, baseTurn, messageCount, branched };
}

/** What one job's turn works with. */
export interface Drive {
  data: TurnJobData;
  attempt: number;
  /** The history's length, read after the worker took the fence. */
  count: number;
  /** The history as stored after the fence (read once, when first asked: a fresh turn does not ask). */
  history: () => Promise<Message[]>;
  place: TurnPlace;
  store: StoreAdapter;
  emitter: TurnEmitter;
  people: PeopleWaits;
  signal: AbortSignal;
  /** Aborts the turn (a client asked while no worker ran it). */
  abort: () => void;
}

/**
 * The Glove's work for a job: a new message, a turn taken over from a dead worker, or a turn
 * resumed by an answer already recorded in the store ("answer" jobs: `turn_start`, then
 * `turn_resumed` with the slot). Continuing goes through `continueTurn`: calls whose questions were
 * all answered run again and meet the recorded answers. A turn whose calls still wait on stored
 * questions is not answered as interrupted: it stays "waiting".
 */
export async function driveTurn(shared: ScaleShared, glove: IGloveRunnable, d: Drive): Promise<"done" | "waiting"> {
  const { data, count, place, emitter, signal } = d;
  const { redis } = shared;
  const keys = shared.keys(data.conversationId);
  // Read now, not with the worker's first commands: an abort sent before the control channel was served lands here.
  if ((await redis.get(keys.abort)) === data.turnId) d.abort();
  const started = place.baseTurn === data.turnId;
  if (!started) {
    const announced =
      data.clientMessageId !== undefined
        ? { turnId: data.turnId, clientMessageId: data.clientMessageId }
        : { turnId: data.turnId };
    // One round trip: commands on one connection keep their order (the base is set before turn_start).
    await Promise.all([
      redis.hset(keys.state, "turnBase", String(count), "baseTurn", data.turnId),
      emitter.emit("turn_start", data.branch ? { ...announced, branch: data.branch.kind } : announced, [data.turnId]),
    ]);
    if (data.branch) {
      await runBranchOp(glove, data.branch, signal);
      await announceBranches(d);
      return "done";
    }
    if (!data.answer) {
      await glove.processRequest(data.text, signal);
      return "done";
    }
    await emitter.emit(
      "turn_resumed",
      { turnId: data.turnId, attempt: d.attempt, slotId: data.answer.slotId, toolCallId: data.answer.toolCallId },
      [data.turnId],
    );
  } else {
    await emitter.emit("turn_resumed", { turnId: data.turnId, attempt: d.attempt }, [data.turnId]);
    const history = await d.history();
    const base = Number(place.turnBase ?? history.length);
    if (data.branch && (await resumeBranch(glove, d, history, place.branched === data.turnId)) === "done")
      return "done";
    if (!data.branch) await announceUnseen(emitter, history, Number(place.messageCount ?? history.length));
    const userStored =
      data.answer !== undefined ||
      data.branch?.kind === "regenerate" ||
      history.slice(base).some((m) => m.sender === "user" && !m.tool_results?.length);
    if (signal.aborted) throw new AbortError("A client aborted the turn.");
    if (!userStored) {
      await glove.processRequest(data.text, signal);
      return "done";
    }
  }
  if (signal.aborted) throw new AbortError("A client aborted the turn.");
  const history = await d.history();
  if (await waitsOnStoredQuestions(d.store, history)) return "waiting";
  if (!glove.continueTurn) throw new AbortError("This agent cannot continue a turn (its Glove has no continueTurn).");
  // Calls run again to continue (meeting recorded answers) announce no tool_use: counted here.
  d.people.resumed(await rerunCallIds(d.store, history, toolsOf(glove)));
  await glove.continueTurn(signal);
  return "done";
}

/** The branch points as they stand, once a regenerated or edited turn stored its answer. */
async function announceBranches(d: Drive): Promise<void> {
  const count = (await d.store.getMessages()).length;
  await d.emitter.emit("branches_changed", await branchesChangedEvent(d.store, count, []), [String(count)]);
}

/**
 * A regenerate or an edit taken over from a dead worker. Its branches_changed may be lost with
 * it, so clients get the whole active branch first. When its rewrite never landed (the worker
 * records the fork in the stream's state), the operation runs from the start; otherwise "continue":
 * the turn goes on from the stored branch like every taken-over turn (the edited message is sent
 * again only when it was not stored).
 */
async function resumeBranch(
  glove: IGloveRunnable,
  d: Drive,
  history: Message[],
  forked: boolean,
): Promise<"done" | "continue"> {
  await d.emitter.emit("branches_changed", await branchesChangedEvent(d.store, 0, history), [String(history.length)]);
  if (!forked) {
    await runBranchOp(glove, d.data.branch!, d.signal);
    await announceBranches(d);
    return "done";
  }
  return "continue";
}

/** Messages a dead worker stored but could not announce (its events were lost with it). */
async function announceUnseen(emitter: TurnEmitter, history: Message[], announced: number): Promise<void> {
  if (history.length > announced) {
    await emitter.emit("messages_appended", { messages: history.slice(announced), startIndex: announced }, [
      String(history.length),
    ]);
  }
}
