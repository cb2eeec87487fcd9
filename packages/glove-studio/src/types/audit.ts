/** What a studio user did to a conversation: sent, regenerated, edited, switched, forked, answered, aborted. */
export type StudioAction = "message" | "regenerate" | "edit" | "switch_branch" | "fork" | "answer" | "abort";

/** One action taken from the studio on a conversation another principal owns. */
export interface StudioAuditEntry {
  /** ISO-8601 instant. */
  at: string;
  /** The acting principal's id. */
  actor: string;
  action: StudioAction;
  conversationId: string;
  /** The conversation's owner (not the actor: acting on one's own conversation is not audited). */
  owner: string;
  /** What was acted on: a message id, a slot id, the fork's new conversation id… */
  target?: string;
}

/** Where the studio writes its audit records and reads them back (`GET api/audit`). */
export interface StudioAuditLog {
  record(entry: StudioAuditEntry): void | Promise<void>;
  /** Newest first, at most `limit`, of one conversation when given. */
  list(query: { conversationId?: string; limit: number }): StudioAuditEntry[] | Promise<StudioAuditEntry[]>;
}
