import type { StoreAdapter } from "glove-core";
import type { ConversationRecord } from "./conversation-record.js";
import type { StorageInspector } from "./inspect/types.js";
import type { RetentionDatabase } from "../retention/retention-database.js";

export type { ConversationRecord, ConversationStats, LastTurnStatus } from "./conversation-record.js";

/** The fields of a conversation record that may change after it is created. */
export type ConversationChanges = Partial<Omit<ConversationRecord, "id" | "owner" | "agent" | "createdAt">>;

/** The list of conversations: who owns which, and the server's bookkeeping for each. */
export interface ConversationCatalog {
  create(record: ConversationRecord): Promise<void>;
  get(id: string): Promise<ConversationRecord | undefined>;
  /** The owner's conversations, most recently updated first. */
  listByOwner(owner: string, limit: number): Promise<ConversationRecord[]>;
  /**
   * Conversations whose turn is marked running (the scale mode looks among them for turns whose
   * owner died), at most `limit`, least recently updated first.
   */
  listRunning?(limit: number): Promise<ConversationRecord[]>;
  update(id: string, changes: ConversationChanges): Promise<void>;
  delete(id: string): Promise<void>;
  close?(): Promise<void>;
}

/** Where conversations live: the catalog and one StoreAdapter per conversation. */
export interface ServerStorage {
  catalog: ConversationCatalog;
  store(conversationId: string): StoreAdapter | Promise<StoreAdapter>;
  /** Deletes a conversation's stored data (messages, tasks, permissions, inbox, sub-agent stores). */
  delete?(conversationId: string): Promise<void>;
  close?(): Promise<void>;
  /** Refuses appends of replaced turn workers (the scale mode uses it when present). */
  turnFence?: TurnFence;
  /**
   * Paged reads of the stored conversations and the turn traces the server records (Glove
   * Studio reads through it). Every storage of this package has one; turns are traced when present.
   */
  inspect?: StorageInspector;
  /**
   * A value per conversation that changes whenever its inbox does, for many conversations in one
   * read (conversations without items may be missing). With it, watching idle inboxes for items
   * resolved elsewhere costs one read per poll period instead of one per conversation.
   */
  inboxFingerprints?: InboxFingerprints;
  /** The tables and transactions retention and `purgeOwner` work on (sqliteStorage and postgresStorage have it). */
  retention?: RetentionDatabase;
}

/** Fingerprints of the inboxes of `conversationIds`, by conversation id. */
export type InboxFingerprints = (conversationIds: string[]) => Promise<Map<string, string>>;

/**
 * Per-conversation writer numbers: once a writer `take`s the conversation, the stores of earlier
 * writers refuse message appends (a typed GLOVE_TURN_FENCED error), atomically with the append.
 */
export interface TurnFence {
  /** Becomes the conversation's writer; returns this writer's number. */
  take(conversationId: string): Promise<number>;
  /**
   * `take` and the catalog's `get` of the same conversation in one round trip, for a storage that
   * keeps both in one database (a turn's worker needs both before it starts).
   */
  takeWithRecord?(conversationId: string): Promise<{ writer: number; record: ConversationRecord | undefined }>;
  /**
   * The conversation's store for `writer`: its message appends fail once a later writer took over,
   * or once `holds` says this writer learned elsewhere (e.g. a lost run lock) that it lost the turn.
   */
  store(conversationId: string, writer: number, holds?: () => boolean): Promise<StoreAdapter>;
}

/** A store factory, as `createGloveServer({ store })` accepts it besides a ServerStorage. */
export type StoreFactory = (conversationId: string) => StoreAdapter | Promise<StoreAdapter>;
