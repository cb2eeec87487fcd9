import type { BranchInfo } from "glove-core";
import type { AbortOutcome, ConversationHandle, SlotAnswer } from "../../conversations/conversation-handle.js";
import { EventLog } from "../../conversations/event-log.js";
import { streamEntry } from "../redis/event-tail.js";
import type { Principal } from "../../security/authenticate.js";
import type { ConversationRecord } from "../../storage/types.js";

/** What a remote conversation needs of its host: a way to run a method where the conversation is owned. */
export interface OwnerCalls {
  call<T>(record: ConversationRecord, principal: Principal, method: ForwardedMethod, args: unknown[]): Promise<T>;
}

/** The handle methods a non-owner forwards to the owner (see owner-host.ts). */
export const FORWARDED_METHODS = [
  "snapshot",
  "startTurn",
  "turnSettled",
  "answerSlot",
  "settledQuestion",
  "abortTurn",
  "regenerate",
  "editMessage",
  "branches",
  "switchBranch",
] as const;
export type ForwardedMethod = (typeof FORWARDED_METHODS)[number];

/** A snapshot as the owner answers it: with the first id its log handed out minus one (ids below never come from it). */
export interface OwnedSnapshot {
  data: Record<string, unknown>;
  lastId: number;
  baseId: number;
}

/** How long a reader waits for replicated events it knows exist before it starts over from a snapshot. */
const CATCH_UP_MS = 3000;

/**
 * A conversation owned by another instance, as this instance's routes and readers see it: every
 * action is forwarded to the owner (or run here when this instance becomes the owner meanwhile),
 * and events arrive from the Redis stream the owner replicates to, into a local log this
 * instance's readers share.
 */
export class RemoteConversation implements ConversationHandle {
  subscribers = 0;
  lastActive = Date.now();

  constructor(
    readonly record: ConversationRecord,
    public principal: Principal,
    readonly log: EventLog,
    private readonly owner: OwnerCalls,
  ) {}

  get id(): string {
    return this.record.id;
  }

  async snapshot(): Promise<{ data: Record<string, unknown>; lastId: number }> {
    const { data, lastId, baseId } = await this.#call<OwnedSnapshot>("snapshot");
    // A copy that holds no event yet started at a guess (an empty stream: the catalog's reservation): the owner's position wins.
    if (this.log.lastId > lastId) this.log.restartAt(lastId);
    // Ids up to the owner's base never come from it: readers here continue after the snapshot at once.
    if (this.log.lastId < baseId) this.log.skipTo(baseId);
    await this.catchUp(lastId);
    if (this.log.lastId < lastId) this.log.skipTo(lastId);
    return { data, lastId };
  }

  async catchUp(after: number): Promise<void> {
    const deadline = Date.now() + CATCH_UP_MS;
    while (this.log.lastId < after && !this.log.closed && Date.now() < deadline) {
      await Promise.race([this.log.waitAfter(this.log.lastId), new Promise((resolve) => setTimeout(resolve, 50))]);
    }
  }

  startTurn(text: string, clientMessageId: string | undefined): Promise<{ turnId: string; duplicate: boolean }> {
    return this.#call("startTurn", text, clientMessageId ?? null);
  }

  turnSettled(turnId: string): Promise<void> {
    return this.#call<void>("turnSettled", turnId).catch(() => undefined);
  }

  answerSlot(slotId: string, answer: SlotAnswer): Promise<{ slotId: string; status: "resolved" | "rejected" }> {
    return this.#call("answerSlot", slotId, answer);
  }

  settledQuestion(slotId: string): Promise<"resolved" | "rejected" | "cancelled" | undefined> {
    return this.#call<"resolved" | "rejected" | "cancelled" | null>("settledQuestion", slotId).then(
      (status) => status ?? undefined,
    );
  }

  abortTurn(): Promise<AbortOutcome> {
    return this.#call("abortTurn");
  }

  regenerate(): Promise<{ turnId: string }> {
    return this.#call("regenerate");
  }

  editMessage(messageId: string, text: string): Promise<{ turnId: string }> {
    return this.#call("editMessage", messageId, text);
  }

  branches(): Promise<BranchInfo> {
    return this.#call("branches");
  }

  switchBranch(messageId: string): Promise<BranchInfo> {
    return this.#call("switchBranch", messageId);
  }

  #call<T>(method: ForwardedMethod, ...args: unknown[]): Promise<T> {
    this.lastActive = Date.now();
    return this.owner.call<T>(this.record, this.principal, method, args);
  }
}

/** A log for a remote conversation, starting where the Redis stream's kept events start. */
export function remoteLog(
  entries: Array<[string, string[]]>,
  fallbackBase: number,
  limits: ConstructorParameters<typeof EventLog>[1],
): EventLog {
  const events = entries.map(([entryId, fields]) => streamEntry(entryId, fields));
  const log = new EventLog(events[0] ? events[0].id - 1 : fallbackBase, limits);
  for (const event of events) log.appendNumbered(event.id, event.type, event.json, event.prev);
  return log;
}
