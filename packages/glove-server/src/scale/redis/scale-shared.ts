import type { Queue } from "bullmq";
import type { AgentSource } from "../../agents/agent-source.js";
import type { BranchOp } from "../../conversations/conversation-handle.js";
import type { ResolvedServerOptions } from "../../options.js";
import type { InboxPoller } from "../../conversations/inbox-poller.js";
import type { ServerStorage } from "../../storage/types.js";
import type { ControlChannel } from "./control-channel.js";
import type { EventTail } from "./event-tail.js";
import type { ConversationKeys } from "./keys.js";
import type { ResolvedRedisScale } from "./redis-scale-options.js";
import type { ScaleRedis } from "./scripts.js";

/** What the scale mode's parts share within one instance. */
export interface ScaleShared {
  redis: ScaleRedis;
  queue: Queue<TurnJobData>;
  control: ControlChannel;
  tail: EventTail;
  /** Re-reads the inboxes this instance's readers watch (one timer, one fingerprint read per period where storage can). */
  inbox: InboxPoller;
  keys(conversationId: string): ConversationKeys;
  storage: ServerStorage;
  agents: AgentSource;
  options: ResolvedServerOptions;
  scale: ResolvedRedisScale;
}

/** A turn as queued: everything a worker on any instance needs to run it. */
export interface TurnJobData {
  conversationId: string;
  turnId: string;
  text: string;
  clientMessageId?: string;
  owner: string;
  agent: string;
  /**
   * An "answer" job: the turn resumes after a stored question was answered (recorded in the store
   * by the instance that took the answer). `text` is empty then.
   */
  answer?: AnsweredQuestion;
  /** A regenerate or an edit (decision 0025), checked by the instance that queued it; `text` is the edit's. */
  branch?: BranchOp;
}

/** The stored question whose recorded answer resumes a turn. */
export interface AnsweredQuestion {
  slotId: string;
  toolCallId: string;
  toolName: string;
  status: "resolved" | "rejected";
}

/** Jobs are the turn's id; a failure outside the loop (storage away) is tried again twice. */
export function jobOptions(turnId: string) {
  return {
    jobId: turnId,
    removeOnComplete: true,
    removeOnFail: 1000,
    attempts: 3,
    backoff: { type: "fixed", delay: 1000 },
  };
}

/** Event ids reserved in the catalog ahead of the Redis counter, for a Redis that lost its data. */
export const ID_RESERVE = 1_000_000;
